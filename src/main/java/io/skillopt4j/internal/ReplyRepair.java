package io.skillopt4j.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). The part of upstream's {@code json_repair} that Jackson's read features do not cover: it
 * closes a truncated reply, turns Python literals into JSON ones, quotes bare words in value position and escapes a
 * quote that does not end its string.
 */
final class ReplyRepair {
    private static final Pattern NUMBER_OR_LITERAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?|true|false|null|[-+]?(NaN|Infinity)");
    /** Where an object frame stands: expecting a key, after a key, after the colon, after the value. */
    private static final int KEY = 0, AFTER_KEY = 1, VALUE = 2, DONE = 3;

    private ReplyRepair() {}

    static String repair(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        List<int[]> frames = new ArrayList<>(); // {bracket, phase}
        int i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                i = string(s, i, out);
                token(frames);
            } else if (c == '/' && i + 1 < n && (s.charAt(i + 1) == '/' || s.charAt(i + 1) == '*')) {
                boolean line = s.charAt(i + 1) == '/';
                int end = line ? s.indexOf('\n', i) : s.indexOf("*/", i + 2);
                int stop = end < 0 ? n : line ? end : end + 2;
                out.append(s, i, stop);
                if (end < 0 && !line) out.append("*/");
                i = stop;
            } else if (c == '{' || c == '[') {
                frames.add(new int[] {c, KEY});
                out.append(c);
                i++;
            } else if (c == '}' || c == ']') {
                if (!frames.isEmpty()) close(frames, out, false);
                i++;
            } else if (c == ':' || c == ',') {
                if (!frames.isEmpty() && top(frames)[0] == '{') top(frames)[1] = c == ':' ? VALUE : KEY;
                out.append(c);
                i++;
            } else if (Character.isLetterOrDigit(c) || "_-+.".indexOf(c) >= 0) {
                int st = i;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || "_-+.".indexOf(s.charAt(i)) >= 0)) i++;
                out.append(word(s.substring(st, i), frames));
                token(frames);
            } else {
                out.append(c);
                i++;
            }
        }
        while (!frames.isEmpty()) close(frames, out, true);
        return out.toString();
    }

    /** Copies one string from {@code s[i]} (its opening quote) and returns the index after it; closes it at the end of the text. */
    private static int string(String s, int i, StringBuilder out) {
        char q = s.charAt(i);
        out.append(q);
        int j = i + 1, n = s.length();
        while (j < n) {
            char c = s.charAt(j);
            if (c == '\\') {
                if (j + 1 < n) out.append(c).append(s.charAt(j + 1));
                j += 2;
                continue;
            }
            if (c == q) {
                int k = j + 1;
                while (k < n && " \t\r\n".indexOf(s.charAt(k)) >= 0) k++;
                if (k >= n || ",:}]".indexOf(s.charAt(k)) >= 0) {
                    out.append(q);
                    return j + 1;
                }
                out.append('\\');
            }
            out.append(c);
            j++;
        }
        out.append(q);
        return n;
    }

    private static String word(String w, List<int[]> frames) {
        boolean valuePosition = !frames.isEmpty() && (top(frames)[0] == '[' || top(frames)[1] == VALUE);
        return switch (w) {
            case "True" -> "true";
            case "False" -> "false";
            case "None" -> "null";
            default -> valuePosition && !NUMBER_OR_LITERAL.matcher(w).matches() ? "\"" + w + "\"" : w;
        };
    }

    /** Pops the top frame with its own closing bracket; at the end of a truncated text, first completes a dangling pair. */
    private static void close(List<int[]> frames, StringBuilder out, boolean truncated) {
        int[] f = frames.remove(frames.size() - 1);
        if (truncated && f[0] == '{' && f[1] == AFTER_KEY) out.append(": null");
        else if (truncated && f[0] == '{' && f[1] == VALUE) out.append("null");
        out.append(f[0] == '{' ? '}' : ']');
        token(frames);
    }

    /** A key or value ended in the top frame. */
    private static void token(List<int[]> frames) {
        if (frames.isEmpty()) return;
        int[] f = top(frames);
        if (f[0] == '{') f[1] = f[1] == KEY ? AFTER_KEY : f[1] == VALUE ? DONE : f[1];
    }

    private static int[] top(List<int[]> frames) {
        return frames.get(frames.size() - 1);
    }
}
