package io.skillopt4j.frames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable. A Markdown document with an optional label (its file name). {@link #toString()} shows only the opening
 * lines and the size, so a long skill stays readable after JShell's {@code ==>}.
 */
public record Markdown(String label, String text) {
    static final int PREVIEW_LINES = 12;

    public Markdown {
        label = label == null ? "" : label;
        Objects.requireNonNull(text, "text");
    }

    public static Markdown of(String text) { return new Markdown("", text); }

    public static Markdown of(String label, String text) { return new Markdown(label, text); }

    /** Reads a Markdown file (UTF-8). */
    public static Markdown read(Path file) {
        try {
            return of(Files.readString(file));
        } catch (IOException e) { throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e); }
    }

    /** Returns the length in Unicode code points (as upstream's skill_len counts). */
    public int length() { return text.codePointCount(0, text.length()); }

    public int lines() { return text.isEmpty() ? 0 : text.split("\n", -1).length - (text.endsWith("\n") ? 1 : 0); }

    public Diff diff(Markdown other) { return Diff.of(this, other); }

    /** A short unlabelled document as it is; otherwise its opening lines, then the label and the size. */
    @Override public String toString() {
        int n = lines();
        if (label.isEmpty() && n <= PREVIEW_LINES) return text;
        String[] ls = text.split("\n", -1);
        StringBuilder sb = new StringBuilder(label.isEmpty() ? "" : "\n");
        for (int i = 0; i < Math.min(PREVIEW_LINES, n); i++) sb.append(TextTable.cell(ls[i], 100)).append('\n');
        String size = n + " lines, " + length() + " chars";
        if (label.isEmpty()) return sb.append("… (").append(size).append(')').toString();
        if (n > PREVIEW_LINES) sb.append("…\n");
        return sb.append(label).append(" · ").append(size).toString();
    }
}
