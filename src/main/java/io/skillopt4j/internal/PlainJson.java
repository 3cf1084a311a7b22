package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stateless. Writes plain data — the JDK's own maps with string keys and collections, object arrays, strings,
 * booleans, nulls and the JDK's integer, floating and big-number classes — straight to a {@link JsonGenerator},
 * token for token as Jackson's serializers for those types write them. Why: a cold JVM's {@code ObjectMapper}
 * builds a serializer for every runtime class it meets the first time (class, annotation and creator
 * introspection; 5-20 ms for the first {@code LinkedHashMap}, {@code List.of} or unmodifiable map on a cold
 * JDK), and run folders hold nothing else. {@link #isPlain} says whether a value qualifies; anything else goes
 * through the mapper as before (tested equal on random trees in {@code PlainJsonTest}). {@link #readCurrent} is the
 * reverse: the first JSON value of a parser as the mapper's untyped deserializer builds it ({@code LinkedHashMap},
 * {@code ArrayList}, {@code String}, {@code Integer}/{@code Long}/{@code BigInteger}, {@code Double}, {@code Boolean},
 * null; a repeated key keeps its last value), without building that deserializer on a cold JVM's main thread.
 */
final class PlainJson {
    /** Deeper trees (or cycles) go to the mapper, which reports them as it always has. */
    private static final int MAX_DEPTH = 200;

    private PlainJson() {}

    /** Returns true when {@link #write} writes {@code v} exactly as the mapper would. */
    static boolean isPlain(Object v) { return isPlain(v, 0); }

    private static boolean isPlain(Object v, int depth) {
        if (v == null || v instanceof String || v instanceof Boolean || isJdkNumber(v)) return true;
        if (depth >= MAX_DEPTH) return false;
        if (v instanceof Map<?, ?> m) {
            if (!isJdk(v)) return false;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String) || !isPlain(e.getValue(), depth + 1)) return false;
            }
            return true;
        }
        if (v instanceof Collection<?> c) {
            if (!isJdk(v)) return false;
            for (Object o : c) if (!isPlain(o, depth + 1)) return false;
            return true;
        }
        if (v instanceof Object[] a) {
            for (Object o : a) if (!isPlain(o, depth + 1)) return false;
            return true;
        }
        return false;
    }

    // a user's own Map or List subclass may carry Jackson annotations: only the JDK's (java.util.*) are plain
    private static boolean isJdk(Object v) { return v.getClass().getName().startsWith("java.util."); }

    private static boolean isJdkNumber(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Double || v instanceof Float || v instanceof Short
                || v instanceof Byte || v instanceof BigDecimal || v instanceof BigInteger;
    }

    /** Writes a value {@link #isPlain} accepted. */
    static void write(JsonGenerator g, Object v) throws IOException {
        if (v == null) g.writeNull();
        else if (v instanceof String s) g.writeString(s);
        else if (v instanceof Boolean b) g.writeBoolean(b);
        else if (v instanceof Integer i) g.writeNumber(i);
        else if (v instanceof Long l) g.writeNumber(l);
        else if (v instanceof Double d) g.writeNumber(d);
        else if (v instanceof Float f) g.writeNumber(f);
        else if (v instanceof Short s) g.writeNumber(s);
        else if (v instanceof Byte b) g.writeNumber(b.intValue());
        else if (v instanceof BigDecimal d) g.writeNumber(d);
        else if (v instanceof BigInteger i) g.writeNumber(i);
        else if (v instanceof Map<?, ?> m) {
            g.writeStartObject(m);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                g.writeFieldName((String) e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof Collection<?> c) {
            g.writeStartArray(c, c.size());
            for (Object o : c) write(g, o);
            g.writeEndArray();
        } else {
            Object[] a = (Object[]) v;
            g.writeStartArray(a, a.length);
            for (Object o : a) write(g, o);
            g.writeEndArray();
        }
    }

    /** Reads the value whose first token the parser is on. Syntax errors throw the parser's exception. */
    static Object readCurrent(JsonParser p) throws IOException {
        return value(p, p.currentToken(), 0);
    }

    private static Object value(JsonParser p, JsonToken t, int depth) throws IOException {
        switch (t) {
            case START_OBJECT: {
                if (depth >= MAX_DEPTH) throw new TooDeep();
                Map<String, Object> m = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String name = p.currentName();
                    m.put(name, value(p, p.nextToken(), depth + 1));
                }
                return m;
            }
            case START_ARRAY: {
                if (depth >= MAX_DEPTH) throw new TooDeep();
                List<Object> l = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) l.add(value(p, e, depth + 1));
                return l;
            }
            case VALUE_STRING: return p.getText();
            case VALUE_NUMBER_INT: return p.getNumberValue();
            case VALUE_NUMBER_FLOAT: return p.getDoubleValue();
            case VALUE_TRUE: return Boolean.TRUE;
            case VALUE_FALSE: return Boolean.FALSE;
            case VALUE_NULL: return null;
            default: throw new TooDeep(); // not produced by a JSON parser: let the mapper decide
        }
    }

    /**
     * Reads the value whose first token the parser is on into the tree the mapper's {@code readTree} builds:
     * {@code JsonNodeFactory.instance}'s nodes, int/long/big-integer nodes by the parser's number type, double nodes
     * for JSON's floats, a repeated key's last value in the key's first position.
     */
    static JsonNode treeCurrent(JsonParser p) throws IOException {
        return node(p, p.currentToken(), 0);
    }

    private static JsonNode node(JsonParser p, JsonToken t, int depth) throws IOException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (t) {
            case START_OBJECT: {
                if (depth >= MAX_DEPTH) throw new TooDeep();
                ObjectNode o = f.objectNode();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String name = p.currentName();
                    o.replace(name, node(p, p.nextToken(), depth + 1));
                }
                return o;
            }
            case START_ARRAY: {
                if (depth >= MAX_DEPTH) throw new TooDeep();
                ArrayNode a = f.arrayNode();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) a.add(node(p, e, depth + 1));
                return a;
            }
            case VALUE_STRING: return f.textNode(p.getText());
            case VALUE_NUMBER_INT: {
                JsonParser.NumberType nt = p.getNumberType();
                if (nt == JsonParser.NumberType.INT) return f.numberNode(p.getIntValue());
                if (nt == JsonParser.NumberType.LONG) return f.numberNode(p.getLongValue());
                return f.numberNode(p.getBigIntegerValue());
            }
            case VALUE_NUMBER_FLOAT: {
                JsonParser.NumberType nt = p.getNumberType();
                if (nt == JsonParser.NumberType.BIG_DECIMAL) return f.numberNode(p.getDecimalValue());
                if (nt == JsonParser.NumberType.FLOAT) return f.numberNode(p.getFloatValue());
                return f.numberNode(p.getDoubleValue());
            }
            case VALUE_TRUE: return f.booleanNode(true);
            case VALUE_FALSE: return f.booleanNode(false);
            case VALUE_NULL: return f.nullNode();
            default: throw new TooDeep(); // not produced by a JSON parser: let the mapper decide
        }
    }

    /** Thrown where the mapper, not this reader, should answer (very deep trees, unexpected tokens). */
    static final class TooDeep extends IOException {
        TooDeep() { super("left to the mapper", null); }
    }
}
