package io.skillopt4j.frames;

import java.util.Objects;

/**
 * Immutable. One skill text (a {@code skills/skill_vNNNN.md}, {@code best_skill.md} or candidate) with a label;
 * {@code toString()} shows its opening lines and size rather than the whole document.
 */
public record SkillDocument(String label, String text) {
    static final int PREVIEW_LINES = 12;

    public SkillDocument {
        Objects.requireNonNull(label, "label");
        text = text == null ? "" : text;
    }

    /** Returns the length in Unicode code points (as upstream's skill_len counts). */
    public int length() { return text.codePointCount(0, text.length()); }

    /** Returns the number of lines. */
    public int lines() { return text.isEmpty() ? 0 : text.split("\n", -1).length - (text.endsWith("\n") ? 1 : 0); }

    /** Returns the unified diff from this document to {@code other}. */
    public SkillDiff diff(SkillDocument other) { return SkillDiff.of(this, other); }

    @Override public String toString() {
        String[] ls = text.split("\n", -1);
        StringBuilder sb = new StringBuilder("\n");
        int n = Math.min(PREVIEW_LINES, lines());
        for (int i = 0; i < n; i++) sb.append(TextTable.cell(ls[i], 100)).append('\n');
        if (lines() > n) sb.append("…\n");
        return sb.append(label).append(" · ").append(lines()).append(" lines, ").append(length()).append(" chars").toString();
    }
}
