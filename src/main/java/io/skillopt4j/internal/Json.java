package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe. The one JSON mapper of the project. {@link #pretty(Object)} writes exactly what Python's
 * {@code json.dumps(obj, indent=2, ensure_ascii=False)} writes, so our run folders diff cleanly against
 * upstream ones; parsing is lenient about NaN/Infinity, which Python may emit.
 *
 * <p>The mapper is built on first use ({@link #mapper()}): plain data is written by {@link PlainJsonText}, and plain
 * documents, trees and model replies are read by {@link PlainJsonReader}, else through {@link #FACTORY} and
 * {@link PlainJson}, so a training run never builds it (its initialisation, a
 * {@code SimpleDateFormat} and the locale data behind it among others, cost a cold JVM ~26 ms on the main thread
 * before the first model call).
 */
public final class Json {
    /** The mapper's parser and generator features (tested equal), for token-level reading and writing. */
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .build();

    private static final class Lazy {
        // on a copy of FACTORY (the mapper becomes its factory's codec), so the features are stated once
        static final ObjectMapper MAPPER = JsonMapper.builder(FACTORY.copy())
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .build();
        static final ObjectWriter PRETTY = MAPPER.writer(new PythonPrettyPrinter());
        static final ObjectWriter LINE = MAPPER.writer(new PythonLinePrinter());
        static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
        static final TypeReference<ArrayList<Object>> LIST = new TypeReference<>() {};
    }

    private Json() {}

    /** The project's mapper, for typed binding (records, beans) and anything that is not plain data. */
    public static ObjectMapper mapper() { return Lazy.MAPPER; }

    /** Returns {@code value} as Python's {@code json.dumps(indent=2, ensure_ascii=False)} would print it. */
    public static String pretty(Object value) {
        try {
            String plain = PlainJsonText.write(value, PlainJsonText.PRETTY);
            return plain != null ? plain : Lazy.PRETTY.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns {@code value} on one line, as {@code json.dumps(obj, ensure_ascii=False)} (", " and ": " separators). */
    public static String line(Object value) {
        try {
            String plain = PlainJsonText.write(value, PlainJsonText.LINE);
            return plain != null ? plain : Lazy.LINE.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns {@code value} as compact JSON (no spaces), for wire bodies and cache keys. */
    public static String compact(Object value) {
        try {
            String plain = PlainJsonText.write(value, PlainJsonText.COMPACT);
            return plain != null ? plain : Lazy.MAPPER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Object NOT_READ = new Object();

    /**
     * The text's first value read by {@link PlainJson#read}, or {@code NOT_READ} when the mapper must answer (no
     * value, a tree too deep for it); bad JSON throws the parser's own exception, whose message is the one the
     * mapper gives (the mapper reads with the same parser; tested on cut documents), so no mapper is built for it.
     */
    // start: the first token a typed read needs (the mapper reports any other before reading on), or null for any
    private static Object plainRead(String text, com.fasterxml.jackson.core.JsonToken start)
            throws com.fasterxml.jackson.core.JsonProcessingException {
        Object fast = PlainJsonReader.plain(text);
        if (fast != null) {
            if (start == com.fasterxml.jackson.core.JsonToken.START_OBJECT && !(fast instanceof Map)) return NOT_READ;
            if (start == com.fasterxml.jackson.core.JsonToken.START_ARRAY && !(fast instanceof List)) return NOT_READ;
            return fast == PlainJsonReader.NULL ? null : fast;
        }
        try (JsonParser p = FACTORY.createParser(text)) {
            com.fasterxml.jackson.core.JsonToken t = p.nextToken();
            return t == null || start != null && t != start ? NOT_READ : PlainJson.readCurrent(p);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            return NOT_READ;
        }
    }

    /** Parses a JSON object into an insertion-ordered map; throws IllegalArgumentException on bad JSON. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        try {
            if (plainRead(text, com.fasterxml.jackson.core.JsonToken.START_OBJECT) instanceof Map<?, ?> m) return (Map<String, Object>) m;
            return Lazy.MAPPER.readValue(text, Lazy.MAP); // its message for no content or another type
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON object: " + msg(e), e);
        }
    }

    /** Parses a JSON array; throws IllegalArgumentException on bad JSON. */
    @SuppressWarnings("unchecked")
    public static List<Object> parseArray(String text) {
        try {
            if (plainRead(text, com.fasterxml.jackson.core.JsonToken.START_ARRAY) instanceof List<?> l) return (List<Object>) l;
            return Lazy.MAPPER.readValue(text, Lazy.LIST);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON array: " + msg(e), e);
        }
    }

    /** Parses any JSON value into maps, lists, strings, numbers, booleans and nulls. */
    public static Object parse(String text) {
        try {
            Object v = plainRead(text, null);
            return v != NOT_READ ? v : Lazy.MAPPER.readValue(text, Object.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + msg(e), e);
        }
    }

    /**
     * Parses into a tree, exactly as the mapper's {@code readTree} does (node classes, numbers, a repeated key keeps
     * its last value, no content gives a missing node; tested equal), read by {@link PlainJson} token by token.
     */
    public static JsonNode tree(String text) {
        JsonNode fast = PlainJsonReader.tree(text);
        if (fast != null) return fast;
        try {
            try (JsonParser p = FACTORY.createParser(text)) {
                return p.nextToken() == null ? MissingNode.getInstance() : PlainJson.treeCurrent(p);
            } catch (PlainJson.TooDeep deep) {
                return Lazy.MAPPER.readTree(text); // reads trees deeper than PlainJson's without recursion
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + msg(e), e);
        }
    }

    /**
     * The tree of a JSON body's first value (UTF-8/16/32, detected as the mapper detects it), as the mapper's
     * {@code readTree} builds it, after checking that the rest of the body parses too; null for a body with no
     * value; the parser's exception on bad JSON. For a model reply, read once inside the HTTP retry loop.
     */
    public static JsonNode bodyTree(byte[] bytes) throws IOException {
        JsonNode fast = PlainJsonReader.tree(bytes);
        if (fast != null) return fast;
        try (JsonParser p = FACTORY.createParser(bytes)) {
            JsonNode tree = null;
            if (p.nextToken() != null) {
                try {
                    tree = PlainJson.treeCurrent(p);
                } catch (PlainJson.TooDeep deep) {
                    return mapperBodyTree(bytes);
                }
            }
            while (p.nextToken() != null) p.skipChildren();
            return tree;
        }
    }

    // trees deeper than PlainJson reads start over in the mapper, which reads them without recursion
    private static JsonNode mapperBodyTree(byte[] bytes) throws IOException {
        try (JsonParser p = Lazy.MAPPER.getFactory().createParser(bytes)) {
            JsonNode tree = p.nextToken() == null ? null : Lazy.MAPPER.readTree(p);
            while (p.nextToken() != null) p.skipChildren();
            return tree;
        }
    }

    /**
     * Reads a UTF-8 JSON file into maps/lists; the message of any failure names the file. Read token by token into
     * exactly what {@code readValue(text, Object.class)} returns ({@link PlainJson}, tested): a cold JVM's first
     * {@code Object} read asks for Jackson's {@code @JacksonStdImpl} annotation, whose proxy classes cost ~25 ms,
     * and a training run reads its data this way on the main thread before its first model call.
     */
    public static Object read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Object v = plainRead(text, null);
            return v != NOT_READ ? v : Lazy.MAPPER.readValue(text, Object.class);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the object lines of a JSON Lines file that processes append to (results, ledgers, logs): blank lines and
     * lines that are not a JSON object, such as the torn last line of a writer killed mid-append, are skipped; an
     * absent file has none. Any other failure to read names the file.
     */
    public static List<Map<String, Object>> readObjectLines(Path file) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) return out;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        for (String line : lines) {
            if (line.isBlank()) continue;
            try {
                out.add(parseObject(line));
            } catch (IllegalArgumentException torn) {
                // a line cut by a kill mid-append: what it held is redone or lost, never misread
            }
        }
        return out;
    }

    private static String msg(IOException e) {
        return e instanceof com.fasterxml.jackson.core.JsonProcessingException jp ? jp.getOriginalMessage() : e.getMessage();
    }

    /** Python-compatible pretty printer: 2-space indent everywhere, ": " and "," with no space before. */
    static final class PythonPrettyPrinter extends DefaultPrettyPrinter {
        PythonPrettyPrinter() {
            DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
            indentObjectsWith(indenter);
            indentArraysWith(indenter);
            _objectFieldValueSeparatorWithSpaces = ": ";
        }

        PythonPrettyPrinter(PythonPrettyPrinter base) { super(base); _objectFieldValueSeparatorWithSpaces = ": "; }

        @Override public DefaultPrettyPrinter createInstance() { return new PythonPrettyPrinter(this); }

        @Override public void writeEndObject(JsonGenerator g, int nrOfEntries) throws IOException {
            if (!_objectIndenter.isInline()) --_nesting;
            if (nrOfEntries > 0) _objectIndenter.writeIndentation(g, _nesting);
            g.writeRaw('}');
        }

        @Override public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
            if (!_arrayIndenter.isInline()) --_nesting;
            if (nrOfValues > 0) _arrayIndenter.writeIndentation(g, _nesting);
            g.writeRaw(']');
        }
    }

    /** One-line printer with Python's default separators. */
    static final class PythonLinePrinter extends DefaultPrettyPrinter {
        PythonLinePrinter() {
            indentObjectsWith(new NopIndenter());
            indentArraysWith(new NopIndenter());
            _objectFieldValueSeparatorWithSpaces = ": ";
            _spacesInObjectEntries = false;
        }

        PythonLinePrinter(PythonLinePrinter base) { super(base); _objectFieldValueSeparatorWithSpaces = ": "; }

        @Override public DefaultPrettyPrinter createInstance() { return new PythonLinePrinter(this); }

        @Override public void writeObjectEntrySeparator(JsonGenerator g) throws IOException { g.writeRaw(", "); }

        @Override public void writeArrayValueSeparator(JsonGenerator g) throws IOException { g.writeRaw(", "); }

        @Override public void writeEndObject(JsonGenerator g, int n) throws IOException { g.writeRaw('}'); }

        @Override public void writeEndArray(JsonGenerator g, int n) throws IOException { g.writeRaw(']'); }
    }
}
