package io.skillopt4j.frames;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Patch;

import java.util.Arrays;
import java.util.List;

/**
 * Immutable. A unified diff between two skill documents (java-diff-utils, 3 lines of context), with counts of
 * added and removed lines; {@code toString()} is the diff text.
 */
public record SkillDiff(String from, String to, List<String> unified, int added, int removed) {
    public SkillDiff {
        unified = List.copyOf(unified);
    }

    /** Diffs {@code a} → {@code b}. */
    public static SkillDiff of(SkillDocument a, SkillDocument b) {
        List<String> la = lines(a.text());
        List<String> lb = lines(b.text());
        Patch<String> patch = DiffUtils.diff(la, lb);
        int add = 0, del = 0;
        for (AbstractDelta<String> d : patch.getDeltas()) {
            add += d.getTarget().size();
            del += d.getSource().size();
        }
        List<String> u = UnifiedDiffUtils.generateUnifiedDiff(a.label(), b.label(), la, patch, 3);
        return new SkillDiff(a.label(), b.label(), u, add, del);
    }

    private static List<String> lines(String text) {
        if (text.isEmpty()) return List.of();
        String t = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return Arrays.asList(t.split("\n", -1));
    }

    /** True when the two documents are equal. */
    public boolean isEmpty() { return added == 0 && removed == 0; }

    /** Returns the diff text (one line per entry, newline-terminated). */
    public String text() { return unified.isEmpty() ? "" : String.join("\n", unified) + "\n"; }

    @Override public String toString() {
        return "\n" + text() + from + " → " + to + " · +" + added + " −" + removed + " lines";
    }
}
