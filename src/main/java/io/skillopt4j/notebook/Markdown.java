package io.skillopt4j.notebook;

import java.util.Objects;

/**
 * Immutable. A Markdown document (a skill, a report) that notebooks render as {@code text/markdown};
 * {@link #toString()} shows only the opening lines and the size, so a 3,000-line skill stays readable
 * after JShell's {@code ==>}.
 */
public record Markdown(String text) {
    static final int PREVIEW_LINES = 12;

    public Markdown {
        Objects.requireNonNull(text, "text");
    }

    public static Markdown of(String text) {
        return new Markdown(text);
    }

    /** Reads a Markdown file (UTF-8). */
    public static Markdown read(java.nio.file.Path file) {
        try {
            return new Markdown(java.nio.file.Files.readString(file));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Number of lines. */
    public int lines() {
        return text.isEmpty() ? 0 : (int) text.lines().count();
    }

    @Override public String toString() {
        String[] lines = text.split("\n", -1);
        if (lines.length <= PREVIEW_LINES) return text;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < PREVIEW_LINES; i++) sb.append(lines[i]).append('\n');
        return sb.append("… (").append(lines()).append(" lines, ").append(text.length()).append(" chars)").toString();
    }
}
