package io.skillopt4j.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/**
 * Stateless. Writes plain data ({@link PlainJson#isPlain}'s kinds) as JSON text in one pass over a
 * {@link StringBuilder}, character for character what Jackson's generator writes through {@link Json}'s printers
 * (tested against the mapper on random and edge trees in {@code PlainJsonTest}). Why: every model call writes its
 * request body and a ledger line, and every rollout item three files; a cold JVM runs Jackson's generator, its
 * pretty-printer callbacks and the plain-data check interpreted for each (~15 % of a rollout thread's time on the
 * shared workload), and C1 later compiles ~100 of their methods. A value that is not plain gives null: the caller
 * asks the mapper, as before.
 */
final class PlainJsonText {
    /** No spaces: wire bodies, cache keys. */
    static final int COMPACT = 0;
    /** One line with Python's ", " and ": " separators. */
    static final int LINE = 1;
    /** Python's {@code indent=2}. */
    static final int PRETTY = 2;

    /** Deeper trees (or cycles) go to the mapper, as in {@link PlainJson}. */
    private static final int MAX_DEPTH = 200;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PlainJsonText() {}

    /** Returns {@code v} as JSON text in {@code style}, or null when {@code v} is not plain data. */
    static String write(Object v, int style) {
        StringBuilder sb = new StringBuilder(256);
        return value(sb, v, style, 0) ? sb.toString() : null;
    }

    private static boolean value(StringBuilder sb, Object v, int style, int depth) {
        if (v == null) sb.append("null");
        else if (v instanceof String s) string(sb, s);
        else if (v instanceof Boolean b) sb.append(b.booleanValue());
        else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof BigInteger) sb.append(v);
        else if (v instanceof Byte b) sb.append(b.intValue());
        else if (v instanceof Double d) number(sb, Double.isFinite(d), Double.toString(d));
        else if (v instanceof Float f) number(sb, Float.isFinite(f), Float.toString(f));
        else if (v instanceof BigDecimal d) sb.append(d);
        else if (depth >= MAX_DEPTH) return false;
        else if (v instanceof Map<?, ?> m) return isJdk(v) && object(sb, m, style, depth);
        else if (v instanceof Collection<?> c) return isJdk(v) && array(sb, c, c.size(), style, depth);
        else if (v instanceof Object[] a) return array(sb, java.util.Arrays.asList(a), a.length, style, depth);
        else return false;
        return true;
    }

    // Jackson quotes NaN and the infinities (QUOTE_NON_NUMERIC_NUMBERS, on by default)
    private static void number(StringBuilder sb, boolean finite, String text) {
        if (finite) sb.append(text);
        else sb.append('"').append(text).append('"');
    }

    private static boolean object(StringBuilder sb, Map<?, ?> m, int style, int depth) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getKey() instanceof String k)) return false;
            separator(sb, first, style, depth + 1);
            first = false;
            string(sb, k);
            sb.append(style == COMPACT ? ":" : ": ");
            if (!value(sb, e.getValue(), style, depth + 1)) return false;
        }
        if (!first && style == PRETTY) indent(sb, depth);
        sb.append('}');
        return true;
    }

    private static boolean array(StringBuilder sb, Iterable<?> items, int n, int style, int depth) {
        sb.append('[');
        boolean first = true;
        for (Object o : items) {
            separator(sb, first, style, depth + 1);
            first = false;
            if (!value(sb, o, style, depth + 1)) return false;
        }
        if (!first && style == PRETTY) indent(sb, depth);
        sb.append(']');
        return true;
    }

    private static void separator(StringBuilder sb, boolean first, int style, int depth) {
        if (!first) sb.append(style == LINE ? ", " : ",");
        if (style == PRETTY) indent(sb, depth);
    }

    private static void indent(StringBuilder sb, int depth) {
        sb.append('\n');
        for (int i = 0; i < depth; i++) sb.append("  ");
    }

    // Jackson's escapes: the two-character ones for " \ \b \t \n \f \r, \\u00XX for other control characters,
    // everything else (non-ASCII, lone surrogates, /, DEL) as it is
    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        int run = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') continue;
            sb.append(s, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\b' -> sb.append("\\b");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\f' -> sb.append("\\f");
                case '\r' -> sb.append("\\r");
                default -> sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        sb.append(s, run, s.length()).append('"');
    }

    // a user's own Map or List subclass may carry Jackson annotations: only the JDK's (java.util.*) are plain
    private static boolean isJdk(Object v) { return v.getClass().getName().startsWith("java.util."); }
}
