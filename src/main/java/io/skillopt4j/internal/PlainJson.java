package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stateless. Reads JSON into plain data without the mapper: {@link #readCurrent} gives the first JSON value of a
 * parser as the mapper's untyped deserializer builds it ({@code LinkedHashMap}, {@code ArrayList}, {@code String},
 * {@code Integer}/{@code Long}/{@code BigInteger}, {@code Double}, {@code Boolean}, null; a repeated key keeps its
 * last value), and {@link #treeCurrent} the tree its {@code readTree} builds. Why: a cold JVM's {@code ObjectMapper}
 * builds a deserializer on first use (class, annotation and creator introspection), on the main thread before the
 * first model call. Writing goes the other way through {@link PlainJsonText}.
 */
final class PlainJson {
    /** Deeper trees (or cycles) go to the mapper, which reports them as it always has. */
    private static final int MAX_DEPTH = 200;

    private PlainJson() {}

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
