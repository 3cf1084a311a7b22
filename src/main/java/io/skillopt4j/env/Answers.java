package io.skillopt4j.env;

import io.skillopt4j.internal.PyText;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Stateless. Upstream's answer-tag extractions, with Python's regex and strip semantics. */
public final class Answers {
    private static final Pattern TAG = Pattern.compile("<answer>(.*?)</answer>",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);

    private Answers() {}

    /** SearchQA / LiveMath: the last {@code <answer>} match, else the last non-empty line, else the trimmed text. */
    public static String lastTagOrLastLine(String text) {
        String t = text == null ? "" : text;
        return TAG.matcher(t).results().reduce((a, b) -> b).map(m -> PyText.strip(m.group(1))).orElseGet(() -> lastNonEmptyLine(t));
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

    /** SQuAD's token F1: multiset overlap of the two token lists; both empty → 1, one empty → 0. */
    public static double tokenF1(List<String> pred, List<String> gold) {
        if (pred.isEmpty() || gold.isEmpty()) return pred.isEmpty() && gold.isEmpty() ? 1.0 : 0.0;
        Map<String, Integer> counts = new HashMap<>();
        for (String t : gold) counts.merge(t, 1, Integer::sum);
        int same = 0;
        for (String t : pred) {
            if (counts.getOrDefault(t, 0) > 0) {
                same++;
                counts.merge(t, -1, Integer::sum);
            }
        }
        if (same == 0) return 0;
        double precision = (double) same / pred.size();
        double recall = (double) same / gold.size();
        return 2 * precision * recall / (precision + recall);
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
