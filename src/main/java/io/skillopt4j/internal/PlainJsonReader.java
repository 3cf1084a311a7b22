package io.skillopt4j.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe (one per text). Reads a strict, plain JSON document — one value and nothing after it but
 * whitespace — into what {@link PlainJson} builds from Jackson's parser: plain data (maps, lists, strings,
 * Integer/Long/BigInteger by size, Double, Boolean, null; a repeated key keeps its first position and last value)
 * or the mapper's tree nodes. Anything else — comments, NaN, a syntax error, control characters in a string,
 * numbers over 100 digits, strings over 5 M characters, nesting at {@link #MAX_DEPTH}, bytes that are not strict
 * UTF-8 or start with a BOM or a zero (UTF-16/32) — gives null, and the caller reads the text with Jackson as
 * before, which then decides the value or the error message. Why: model replies and result rows are read per
 * call; a cold JVM interprets Jackson's parser for each (~5 % of a rollout thread on the shared workload) and C1
 * compiles ~80 of its methods mid-run. Tested against Jackson on random and mutated documents
 * ({@code PlainJsonReaderTest}).
 */
final class PlainJsonReader {
    /** As {@link PlainJson}'s limit: deeper trees go to the mapper. */
    static final int MAX_DEPTH = 200;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Thrown to leave a text to Jackson; shared, without a stack trace. */
    private static final class Bail extends RuntimeException {
        Bail() { super(null, null, false, false); }
    }

    private static final Bail BAIL = new Bail();

    private final String s;
    private final boolean tree;
    private int i;

    private PlainJsonReader(String s, boolean tree) {
        this.s = s;
        this.tree = tree;
    }

    /** The plain value of {@code text}, or null when Jackson must read it. A JSON null comes back as {@link #NULL}. */
    static Object plain(String text) { return new PlainJsonReader(text, false).document(); }

    /** The tree of {@code text}, or null when Jackson must read it. */
    static JsonNode tree(String text) { return (JsonNode) new PlainJsonReader(text, true).document(); }

    /** The tree of a UTF-8 body, or null when Jackson must read it. */
    static JsonNode tree(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] == 0 || (bytes[0] & 0xFF) == 0xEF || bytes.length > 1 && bytes[1] == 0) return null;
        // the JDK's decoding (fast for ASCII) replaces malformed input with U+FFFD: then, or for a real U+FFFD, the
        // strict decoder decides
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) return tree(text);
        try {
            return tree(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException notStrictUtf8) {
            return null;
        }
    }

    /** Stands for a document that is JSON {@code null} (null itself means "ask Jackson"). */
    static final Object NULL = new Object();

    private Object document() {
        try {
            skipSpace();
            if (i >= s.length()) return null;
            Object v = value(0);
            skipSpace();
            if (i != s.length()) return null;
            return v == null ? NULL : v;
        } catch (Bail | IndexOutOfBoundsException bail) {
            return null;
        }
    }

    private void skipSpace() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
            i++;
        }
    }

    private Object value(int depth) {
        char c = s.charAt(i);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': { String t = string(); return tree ? F.textNode(t) : t; }
            case 't': literal("true"); return tree ? F.booleanNode(true) : Boolean.TRUE;
            case 'f': literal("false"); return tree ? F.booleanNode(false) : Boolean.FALSE;
            case 'n': literal("null"); return tree ? F.nullNode() : null;
            default:
                if (c == '-' || c >= '0' && c <= '9') return number();
                throw BAIL;
        }
    }

    private void literal(String word) {
        if (!s.startsWith(word, i)) throw BAIL;
        i += word.length();
        if (i < s.length() && Character.isLetterOrDigit(s.charAt(i))) throw BAIL; // "nullx": Jackson's error
    }

    private Object object(int depth) {
        if (depth >= MAX_DEPTH) throw BAIL;
        i++;
        ObjectNode node = tree ? F.objectNode() : null;
        Map<String, Object> map = tree ? null : new LinkedHashMap<>();
        skipSpace();
        if (s.charAt(i) == '}') { i++; return tree ? node : map; }
        while (true) {
            if (s.charAt(i) != '"') throw BAIL;
            String key = string();
            skipSpace();
            if (s.charAt(i++) != ':') throw BAIL;
            skipSpace();
            Object v = value(depth + 1);
            if (tree) node.replace(key, (JsonNode) v); else map.put(key, v);
            skipSpace();
            char c = s.charAt(i++);
            if (c == '}') return tree ? node : map;
            if (c != ',') throw BAIL;
            skipSpace();
        }
    }

    private Object array(int depth) {
        if (depth >= MAX_DEPTH) throw BAIL;
        i++;
        ArrayNode node = tree ? F.arrayNode() : null;
        List<Object> list = tree ? null : new ArrayList<>();
        skipSpace();
        if (s.charAt(i) == ']') { i++; return tree ? node : list; }
        while (true) {
            Object v = value(depth + 1);
            if (tree) node.add((JsonNode) v); else list.add(v);
            skipSpace();
            char c = s.charAt(i++);
            if (c == ']') return tree ? node : list;
            if (c != ',') throw BAIL;
            skipSpace();
        }
    }

    private String string() {
        int start = ++i;
        while (true) { // the common case: no escapes
            char c = s.charAt(i);
            if (c == '"') return checked(s.substring(start, i++));
            if (c == '\\') break;
            if (c < 0x20) throw BAIL;
            i++;
        }
        StringBuilder sb = new StringBuilder(i - start + 16).append(s, start, i);
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') return checked(sb.toString());
            if (c < 0x20) throw BAIL;
            if (c != '\\') { sb.append(c); continue; }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    int v = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = Character.digit(s.charAt(i++), 16);
                        if (d < 0 || s.charAt(i - 1) > 'f') throw BAIL;
                        v = v * 16 + d;
                    }
                    sb.append((char) v);
                }
                default -> throw BAIL;
            }
        }
    }

    // Jackson refuses strings over its StreamReadConstraints limit (20 M chars by default): left to it well before that
    private static String checked(String text) {
        if (text.length() > MAX_STRING) throw BAIL;
        return text;
    }

    private static final int MAX_STRING = 5_000_000;

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; integers as the smallest of Integer, Long, BigInteger that holds
    // them (Jackson's number types), the rest as Double.parseDouble reads them
    private Object number() {
        int start = i;
        if (s.charAt(i) == '-') i++;
        if (s.charAt(i) == '0') i++;
        else if (!digits()) throw BAIL;
        boolean integral = true;
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            if (!digits()) throw BAIL;
            integral = false;
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            if (!digits()) throw BAIL;
            integral = false;
        }
        if (i - start > 100 || i < s.length() && Character.isLetterOrDigit(s.charAt(i))) throw BAIL;
        String t = s.substring(start, i);
        if (!integral) {
            double d = Double.parseDouble(t);
            return tree ? F.numberNode(d) : d;
        }
        int len = t.length() - (t.charAt(0) == '-' ? 1 : 0);
        if (len <= 9) { int v = Integer.parseInt(t); return tree ? F.numberNode(v) : v; }
        if (len <= 19) {
            long v;
            try {
                v = Long.parseLong(t);
            } catch (NumberFormatException tooBig) {
                BigInteger b = new BigInteger(t);
                return tree ? F.numberNode(b) : b;
            }
            if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) return tree ? F.numberNode((int) v) : (Object) (int) v;
            return tree ? F.numberNode(v) : (Object) v;
        }
        BigInteger b = new BigInteger(t);
        return tree ? F.numberNode(b) : b;
    }

    private boolean digits() {
        int from = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
        return i > from;
    }
}
