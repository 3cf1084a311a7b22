package io.skillopt4j.env;

import io.skillopt4j.internal.PyText;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stateless. Upstream's answer-tag extractions, which differ per benchmark (last match, first match, rfind), with
 * Python's semantics: {@code re.IGNORECASE} on a {@code str} pattern folds case in Unicode ({@code ſ} matches
 * {@code s}), {@code re.DOTALL} lets the answer span lines, and {@code str.strip()} trims Python's whitespace.
 */
public final class Answers {
    private static final Pattern TAG = Pattern.compile("<answer>(.*?)</answer>",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);

    private Answers() {}

    /** SearchQA / LiveMath: the last {@code <answer>} match, else the last non-empty line, else the trimmed text. */
    public static String lastTagOrLastLine(String text) {
        String t = text == null ? "" : text;
        String last = null;
        for (Matcher m = TAG.matcher(t); m.find(); ) last = m.group(1);
        return last != null ? PyText.strip(last) : lastNonEmptyLine(t);
    }

    /** OfficeQA: the first {@code <answer>} match, or null when there is none. */
    public static String firstTag(String text) {
        String t = text == null ? "" : text;
        Matcher m = TAG.matcher(t);
        return m.find() ? PyText.strip(m.group(1)) : null;
    }

    /** DocVQA: the text between the last {@code <answer>} and the last {@code </answer>} if ordered, else the last non-empty line. */
    public static String rfindTag(String text) {
        String t = text == null ? "" : text;
        String low = t.toLowerCase(java.util.Locale.ROOT);
        int open = low.lastIndexOf("<answer>");
        int close = low.lastIndexOf("</answer>");
        if (open >= 0 && close > open) return PyText.strip(t.substring(open + "<answer>".length(), close));
        return lastNonEmptyLine(t);
    }

    /** Whether the text holds an {@code <answer>} tag (case-insensitive). */
    public static boolean hasTag(String text) {
        return text != null && text.toLowerCase(java.util.Locale.ROOT).contains("<answer>");
    }

    /** The last non-empty line (trimmed), else the trimmed text. */
    public static String lastNonEmptyLine(String text) {
        String[] lines = text.split("\r?\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            String line = PyText.strip(lines[i]);
            if (!line.isEmpty()) return line;
        }
        return PyText.strip(text);
    }
}
