package io.skillopt4j.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Stateless. Reads the plain shape config files have — block mappings, block sequences of scalars, plain and
 * simple quoted scalars, comments — into exactly what {@link Yaml11#parse} returns for them, without SnakeYAML: a
 * cold CLI run spent 35-65 ms of its start-up in SnakeYAML for its two config files (docs/performance.md#cold-start).
 * Anything outside that shape (flow collections, anchors, tags, block or multi-line scalars, escapes, tabs,
 * duplicate keys, scalars that YAML 1.1 reads as anything but a string, a plain integer, a plain decimal, a
 * boolean or null, ...) returns {@link #OTHER} and {@link Yaml11} parses it with SnakeYAML as before, errors and
 * all; {@code PlainYamlTest} compares both readers on every bundled config and on generated documents.
 */
final class PlainYaml {
    /** The text has another shape: parse it with SnakeYAML. */
    static final Object OTHER = new Object();

    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
    private static final Pattern DECIMAL_INT = Pattern.compile("-?(?:0|[1-9][0-9]*)");
    private static final Pattern DECIMAL_FLOAT = Pattern.compile("-?[0-9]+\\.[0-9]+");
    private static final String INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

    private PlainYaml() {}

    /** A parsed line: its indentation, its key (null for a sequence item) and its raw value text. */
    private record Line(int indent, String key, String value) {}

    /** Returns what {@link Yaml11#parse} returns for {@code text}, or {@link #OTHER}. */
    static Object parse(String text) {
        if (text.length() > 1_000_000) return OTHER;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            // tabs, CR, YAML 1.1's other line breaks (NEL, LS, PS), characters SnakeYAML rejects, BOM, surrogates
            if (ch < ' ' ? ch != '\n' : ch >= 0x7F && ch <= 0x9F || ch == 0x2028 || ch == 0x2029 || ch >= 0xFFFE
                    || ch == 0xFEFF || Character.isSurrogate(ch)) {
                return OTHER;
            }
        }
        List<Line> lines = new ArrayList<>();
        for (String raw : text.split("\n", -1)) {
            int indent = 0;
            while (indent < raw.length() && raw.charAt(indent) == ' ') indent++;
            if (indent == raw.length() || raw.charAt(indent) == '#') continue; // blank or comment line
            if (indent == 0 && (raw.startsWith("---") || raw.startsWith("...") || raw.startsWith("%"))) return OTHER;
            String body = raw.substring(indent);
            if (body.startsWith("- ") || body.equals("-")) {
                if (body.length() < 3) return OTHER;
                lines.add(new Line(indent, null, body.substring(2)));
                continue;
            }
            int colon = body.indexOf(':');
            if (colon <= 0 || (colon + 1 < body.length() && body.charAt(colon + 1) != ' ')) return OTHER;
            String key = body.substring(0, colon);
            if (!KEY.matcher(key).matches() || !(scalar(key) instanceof String)) return OTHER;
            lines.add(new Line(indent, key, body.substring(colon + 1)));
        }
        if (lines.isEmpty()) return null;
        if (lines.get(0).key == null || lines.get(0).indent != 0) return OTHER;
        int[] at = {0};
        Object doc = mapping(lines, at, 0);
        return at[0] == lines.size() ? doc : OTHER;
    }

    /** Reads the mapping whose keys sit at {@code indent}, from {@code at[0]}; OTHER on any other shape. */
    private static Object mapping(List<Line> lines, int[] at, int indent) {
        Map<String, Object> out = new LinkedHashMap<>();
        while (at[0] < lines.size()) {
            Line l = lines.get(at[0]);
            if (l.indent < indent) break;
            if (l.indent > indent || l.key == null) return OTHER;
            at[0]++;
            if (out.containsKey(l.key)) return OTHER; // SnakeYAML reports duplicates
            Object v;
            if (!spaces(l.value)) {
                v = value(l.value);
            } else if (at[0] < lines.size() && lines.get(at[0]).key == null && lines.get(at[0]).indent >= indent) {
                v = sequence(lines, at, lines.get(at[0]).indent);
            } else if (at[0] < lines.size() && lines.get(at[0]).indent > indent) {
                v = mapping(lines, at, lines.get(at[0]).indent);
            } else {
                v = null; // "key:" alone
            }
            if (v == OTHER) return OTHER;
            out.put(l.key, v);
        }
        return out;
    }

    private static Object sequence(List<Line> lines, int[] at, int indent) {
        List<Object> out = new ArrayList<>();
        while (at[0] < lines.size()) {
            Line l = lines.get(at[0]);
            if (l.indent < indent || (l.indent == indent && l.key != null)) break;
            if (l.indent > indent || l.key != null) return OTHER;
            at[0]++;
            Object v = value(l.value);
            if (v == OTHER) return OTHER;
            out.add(v);
        }
        return out;
    }

    /** A value's text after {@code key:} or {@code - }: a quoted or plain scalar, with an optional comment. */
    private static Object value(String text) {
        String t = trim(text);
        if (t.isEmpty()) return OTHER;
        char c = t.charAt(0);
        if (c == '"' || c == '\'') {
            int end = t.indexOf(c, 1);
            if (end < 0) return OTHER;
            String inner = t.substring(1, end);
            if (c == '"' && inner.indexOf('\\') >= 0) return OTHER;
            String rest = t.substring(end + 1);
            if (!rest.isEmpty() && !(rest.startsWith(" ") && (spaces(rest) || trim(rest).startsWith("#")))) return OTHER;
            return inner;
        }
        int hash = t.indexOf(" #");
        String plain = hash >= 0 ? trim(t.substring(0, hash)) : t;
        if (plain.isEmpty() || INDICATORS.indexOf(plain.charAt(0)) >= 0 && !(plain.charAt(0) == '-' && DECIMAL_INT.matcher(plain).matches()
                || plain.charAt(0) == '-' && DECIMAL_FLOAT.matcher(plain).matches())) {
            return OTHER;
        }
        if (plain.contains(": ") || plain.endsWith(":") || plain.contains(" #")) return OTHER;
        return scalar(plain);
    }

    /** Whether {@code s} is only spaces (YAML's white space here: tabs were turned away). */
    private static boolean spaces(String s) {
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) != ' ') return false;
        return true;
    }

    /** {@code s} without leading and trailing spaces (not {@link String#strip}: YAML keeps other Unicode spaces). */
    private static String trim(String s) {
        int a = 0, b = s.length();
        while (a < b && s.charAt(a) == ' ') a++;
        while (b > a && s.charAt(b - 1) == ' ') b--;
        return s.substring(a, b);
    }

    /** A plain scalar as YAML 1.1 (PyYAML's resolvers, SnakeYAML's safe constructors) reads it, or OTHER. */
    static Object scalar(String s) {
        if (Yaml11.NULL.matcher(s).matches()) return null;
        if (Yaml11.BOOL.matcher(s).matches()) {
            String b = s.toLowerCase(java.util.Locale.ROOT);
            return b.equals("yes") || b.equals("true") || b.equals("on");
        }
        if (Yaml11.FLOAT.matcher(s).matches()) {
            if (!DECIMAL_FLOAT.matcher(s).matches()) return OTHER;
            boolean neg = s.charAt(0) == '-';
            double d = Double.parseDouble(neg ? s.substring(1) : s);
            return d * (neg ? -1 : 1); // SnakeYAML's ConstructYamlFloat: the unsigned value times the sign
        }
        if (Yaml11.INT.matcher(s).matches()) {
            if (!DECIMAL_INT.matcher(s).matches()) return OTHER;
            BigInteger n = new BigInteger(s);
            if (n.bitLength() < 32) return n.intValue(); // SnakeYAML's createNumber: Integer, else Long, else BigInteger
            if (n.bitLength() < 64) return n.longValue();
            return n;
        }
        if (Yaml11.MERGE.matcher(s).matches() || Yaml11.DATE.matcher(s).matches() || Yaml11.TIMESTAMP.matcher(s).matches()) return OTHER;
        return s;
    }
}
