package io.skillopt4j.train;

import io.skillopt4j.internal.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). Pulls the JSON object out of an optimizer reply the way upstream's
 * {@code extract_json} does: a fenced {@code json} block, then the span from the first "{" to the last "}",
 * then a tolerant repair of a single unambiguous object (trailing commas, single quotes, bare keys,
 * Python literals, raw newlines in strings, stray quotes, missing closing brackets).
 */
public final class JsonReply {
    private static final Pattern FENCE = Pattern.compile("```json\\s*(.*?)```", Pattern.DOTALL);

    private JsonReply() {}

    /** Returns the reply's JSON object, or empty when none can be recovered (upstream's None / non-dict). */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> object(String text) {
        Object v = extract(text);
        return v instanceof Map<?, ?> m ? Optional.of((Map<String, Object>) m) : Optional.empty();
    }

    /** Returns the first JSON value found by upstream's three steps, or null. */
    public static Object extract(String text) {
        if (text == null || text.isEmpty()) return null;
        Matcher f = FENCE.matcher(text);
        String fenced = null;
        if (f.find()) {
            fenced = f.group(1).trim();
            Object v = strict(fenced);
            if (v != null) return v;
        }
        int a = text.indexOf('{'), b = text.lastIndexOf('}');
        if (a >= 0 && b > a) {
            Object v = strict(text.substring(a, b + 1));
            if (v != null) return v;
        }
        String candidate = null;
        if (fenced != null) {
            List<String> spans = topLevelObjects(fenced);
            if (spans.size() == 1) candidate = spans.get(0);
        }
        if (candidate == null) {
            List<String> spans = topLevelObjects(text);
            if (spans.size() != 1) return null;
            candidate = spans.get(0);
        }
        // an unclosed last span is a truncated reply: repair it too (upstream gives up)
        boolean truncated = !candidate.strip().endsWith("}") || topLevelObjects(candidate).get(0).length() != candidate.length();
        if (!looksLikeJson(truncated ? candidate.strip() + "}" : candidate)) return null;
        try {
            Object v = new Lenient(candidate).value();
            return v instanceof Map<?, ?> m && !m.isEmpty() ? v : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Object strict(String s) {
        try { return Json.parse(s); } catch (IllegalArgumentException e) { return null; }
    }

    static boolean looksLikeJson(String c) {
        String t = c.trim();
        if (!t.startsWith("{") || !t.endsWith("}")) return false;
        for (int i = 1; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (!Character.isWhitespace(ch)) return ch == '"' || ch == '}';
        }
        return false;
    }

    /**
     * Returns the top-level "{...}" spans, skipping braces inside double-quoted strings (escape-aware). An
     * unclosed last object runs to the end of the text, so a truncated reply still yields one candidate.
     */
    static List<String> topLevelObjects(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = -1;
        boolean inStr = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (inStr) {
                if (c == '\\') i++;
                else if (c == '"') inStr = false;
                continue;
            }
            if (c == '"') inStr = true;
            else if (c == '{') { if (depth++ == 0) start = i; }
            else if (c == '}' && depth > 0 && --depth == 0) out.add(s.substring(start, i + 1));
        }
        if (depth > 0 && start >= 0) out.add(s.substring(start));
        return out;
    }

    /** Not thread-safe; one per parse. A forgiving recursive-descent JSON reader. */
    private static final class Lenient {
        private final String s;
        private int i;

        Lenient(String s) { this.s = s; }

        Object value() {
            ws();
            if (i >= s.length()) return null;
            char c = s.charAt(i);
            if (c == '{') return obj();
            if (c == '[') return arr();
            if (c == '"' || c == '\'') return str(c);
            if (c == '-' || Character.isDigit(c)) return num();
            String w = word();
            switch (w) {
                case "true": case "True": return Boolean.TRUE;
                case "false": case "False": return Boolean.FALSE;
                case "null": case "None": case "": return null;
                default: return w;
            }
        }

        private Map<String, Object> obj() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            while (true) {
                ws();
                if (i >= s.length()) return m;
                char c = s.charAt(i);
                if (c == '}') { i++; return m; }
                if (c == ',') { i++; continue; }
                String key = c == '"' || c == '\'' ? str(c) : word();
                if (key.isEmpty()) { i++; continue; }
                ws();
                if (i < s.length() && s.charAt(i) == ':') i++;
                ws();
                if (i >= s.length() || s.charAt(i) == '}' || s.charAt(i) == ',') { m.put(key, null); continue; }
                m.put(key, value());
            }
        }

        private List<Object> arr() {
            List<Object> l = new ArrayList<>();
            i++;
            while (true) {
                ws();
                if (i >= s.length()) return l;
                char c = s.charAt(i);
                if (c == ']') { i++; return l; }
                if (c == ',') { i++; continue; }
                if (c == '}') { i++; return l; }
                int before = i;
                l.add(value());
                if (i == before) i++;
            }
        }

        /** A quote closes the string only when followed by a structural character; otherwise it is text. */
        private String str(char q) {
            StringBuilder b = new StringBuilder();
            i++;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length()) {
                    char n = s.charAt(i + 1);
                    switch (n) {
                        case 'n': b.append('\n'); break;
                        case 't': b.append('\t'); break;
                        case 'r': b.append('\r'); break;
                        case 'b': b.append('\b'); break;
                        case 'f': b.append('\f'); break;
                        case 'u':
                            if (i + 5 < s.length() + 0 && s.substring(i + 2, Math.min(i + 6, s.length())).matches("[0-9a-fA-F]{4}")) {
                                b.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                                i += 6;
                                continue;
                            }
                            b.append("\\u");
                            break;
                        default: b.append(n);
                    }
                    i += 2;
                    continue;
                }
                if (c == q) {
                    int j = i + 1;
                    while (j < s.length() && (s.charAt(j) == ' ' || s.charAt(j) == '\t' || s.charAt(j) == '\r' || s.charAt(j) == '\n')) j++;
                    if (j >= s.length() || ",:}]".indexOf(s.charAt(j)) >= 0) { i++; return b.toString(); }
                }
                b.append(c);
                i++;
            }
            return b.toString();
        }

        private Object num() {
            int st = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String t = s.substring(st, i);
            try {
                if (t.matches("-?\\d+")) {
                    long l = Long.parseLong(t);
                    return l == (int) l ? (Object) (int) l : (Object) l;
                }
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                return t;
            }
        }

        private String word() {
            int st = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '-' || s.charAt(i) == '.')) i++;
            return s.substring(st, i);
        }

        private void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) { i++; continue; }
                if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                    while (i < s.length() && s.charAt(i) != '\n') i++;
                    continue;
                }
                return;
            }
        }
    }
}
