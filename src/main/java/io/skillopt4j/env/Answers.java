package io.skillopt4j.env;

import io.skillopt4j.internal.AsciiCase;

/**
 * Stateless. Upstream's answer-tag extractions, which differ per benchmark (last match, first match, rfind). The
 * {@code <answer>(.*?)</answer>} matches (case-insensitive in ASCII, any character between) are found with index
 * scans rather than java.util.regex, which a cold JVM interprets for every rollout item; same matches (tested
 * against the regex in {@code AnswersTest}).
 */
public final class Answers {
    private static final String OPEN = "<answer>";
    private static final String CLOSE = "</answer>";

    private Answers() {}

    /** SearchQA / LiveMath: the last {@code <answer>} match, else the last non-empty line, else the trimmed text. */
    public static String lastTagOrLastLine(String text) {
        String t = text == null ? "" : text;
        String last = null;
        for (int from = 0, open; (open = AsciiCase.indexOf(t, OPEN, from)) >= 0; ) {
            int close = AsciiCase.indexOf(t, CLOSE, open + OPEN.length());
            if (close < 0) break; // no later tag can close either
            last = t.substring(open + OPEN.length(), close);
            from = close + CLOSE.length();
        }
        if (last != null) return last.trim();
        return lastNonEmptyLine(t);
    }

    /** OfficeQA: the first {@code <answer>} match, or null when there is none. */
    public static String firstTag(String text) {
        String t = text == null ? "" : text;
        int open = AsciiCase.indexOf(t, OPEN, 0);
        int close = open < 0 ? -1 : AsciiCase.indexOf(t, CLOSE, open + OPEN.length());
        return close < 0 ? null : t.substring(open + OPEN.length(), close).trim();
    }

    /** DocVQA: the text between the last {@code <answer>} and the last {@code </answer>} if ordered, else the last non-empty line. */
    public static String rfindTag(String text) {
        String t = text == null ? "" : text;
        String low = t.toLowerCase(java.util.Locale.ROOT);
        int open = low.lastIndexOf("<answer>");
        int close = low.lastIndexOf("</answer>");
        if (open >= 0 && close > open) return t.substring(open + "<answer>".length(), close).trim();
        return lastNonEmptyLine(t);
    }

    /** Whether the text holds an {@code <answer>} tag (case-insensitive). */
    public static boolean hasTag(String text) {
        return text != null && text.toLowerCase(java.util.Locale.ROOT).contains("<answer>");
    }

    /** The last non-empty line (trimmed), else the trimmed text. */
    public static String lastNonEmptyLine(String text) {
        String[] lines = text.split("\r?\n");
        for (int i = lines.length - 1; i >= 0; i--) if (!lines[i].isBlank()) return lines[i].trim();
        return text.trim();
    }
}
