package io.skillopt4j.env;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Stateless. Upstream's answer-tag extractions, which differ per benchmark (last match, first match, rfind). */
public final class Answers {
    private static final Pattern ANSWER = Pattern.compile("<answer>(.*?)</answer>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private Answers() {}

    /** SearchQA / LiveMath: the last {@code <answer>} match, else the last non-empty line, else the trimmed text. */
    public static String lastTagOrLastLine(String text) {
        String t = text == null ? "" : text;
        Matcher m = ANSWER.matcher(t);
        String last = null;
        while (m.find()) last = m.group(1);
        if (last != null) return last.trim();
        return lastNonEmptyLine(t);
    }

    /** OfficeQA: the first {@code <answer>} match, or null when there is none. */
    public static String firstTag(String text) {
        Matcher m = ANSWER.matcher(text == null ? "" : text);
        return m.find() ? m.group(1).trim() : null;
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
