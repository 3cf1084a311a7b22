package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

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
 * Thread-safe. The one JSON mapper of the project and the facade over it. {@link #pretty(Object)} and
 * {@link #line(Object)} write byte for byte what Python's {@code json.dumps} writes, so run folders diff cleanly
 * against upstream ones; parsing accepts the NaN/Infinity and comments Python or a hand-edited file may contain.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS, JsonReadFeature.ALLOW_JAVA_COMMENTS)
                    .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE) // Python writes control characters in lower-case hex
                    .addDecorator(PythonFloats::decorate)
                    .build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();
    /** Python's {@code indent=2}: ": " after a key, "," with no space before, "[]" and "{}" when empty. */
    private static final Separators PY = Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator("");
    private static final DefaultIndenter INDENT = new DefaultIndenter("  ", "\n");
    private static final DefaultPrettyPrinter.NopIndenter NOP = new DefaultPrettyPrinter.NopIndenter();
    private static final ObjectWriter PRETTY = MAPPER.writer(new DefaultPrettyPrinter(PY)
            .withObjectIndenter(INDENT).withArrayIndenter(INDENT));
    /** One line with Python's default separators ", " and ": ". */
    private static final ObjectWriter LINE = MAPPER.writer(new DefaultPrettyPrinter(PY
                    .withObjectEntrySpacing(Separators.Spacing.AFTER).withArrayValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(NOP).withArrayIndenter(NOP));
    private static final ObjectWriter COMPACT = MAPPER.writer();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
    private static final TypeReference<ArrayList<Object>> LIST = new TypeReference<>() {};

    private Json() {}

    /** The project's mapper, for typed binding (records, beans), trees and streaming. */
    public static ObjectMapper mapper() { return MAPPER; }

    /** {@code value} as Python's {@code json.dumps(indent=2, ensure_ascii=False)} prints it. */
    public static String pretty(Object value) { return write(PRETTY, value); }

    /** {@code value} on one line, as {@code json.dumps(obj, ensure_ascii=False)} prints it. */
    public static String line(Object value) { return write(LINE, value); }

    /** {@code value} as compact JSON, for wire bodies and cache keys. */
    public static String compact(Object value) { return write(COMPACT, value); }

    private static String write(ObjectWriter w, Object value) {
        try {
            return w.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A mutable JSON object of the given keys and values, in that order: {@code obj("a", 1, "b", 2)}. */
    public static Map<String, Object> obj(Object... keysAndValues) { return put(new LinkedHashMap<>(), keysAndValues); }

    /** Puts {@code key, value, key, value, ...} into {@code into}, in that order; returns {@code into}. */
    public static Map<String, Object> put(Map<String, Object> into, Object... keysAndValues) {
        for (int i = 0; i < keysAndValues.length; i += 2) into.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return into;
    }

    /** Parses a JSON object into an insertion-ordered map; throws IllegalArgumentException on bad JSON. */
    public static Map<String, Object> parseObject(String text) {
        return parsed("not a JSON object: ", () -> MAPPER.readValue(text, MAP));
    }

    /** Parses a JSON array; throws IllegalArgumentException on bad JSON. */
    public static List<Object> parseArray(String text) {
        return parsed("not a JSON array: ", () -> MAPPER.readValue(text, LIST));
    }

    /** Parses any JSON value into maps, lists, strings, numbers, booleans and nulls. */
    public static Object parse(String text) {
        return parsed("not JSON: ", () -> MAPPER.readValue(text, Object.class));
    }

    /** Parses into a tree; no content gives a missing node. Throws IllegalArgumentException on bad JSON. */
    public static JsonNode tree(String text) {
        return parsed("not JSON: ", () -> MAPPER.readTree(text));
    }

    private interface Read<T> {
        T read() throws IOException;
    }

    private static <T> T parsed(String what, Read<T> read) {
        try {
            return read.read();
        } catch (IOException e) {
            throw new IllegalArgumentException(what + msg(e), e);
        }
    }

    /** The tree of a JSON body's first value once the whole body parsed (else the parser's exception); null if none. */
    public static JsonNode bodyTree(byte[] bytes) throws IOException {
        try (JsonParser p = MAPPER.createParser(bytes)) {
            if (p.nextToken() == null) return null;
            JsonNode tree = MAPPER.readTree(p);
            while (p.nextToken() != null) p.skipChildren();
            return tree;
        }
    }

    /** Reads a UTF-8 JSON file into maps/lists; the message of any failure names the file. */
    public static Object read(Path file) {
        try {
            return MAPPER.readValue(Files.readString(file, StandardCharsets.UTF_8), Object.class);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the object lines of an appended-to JSON Lines file: blank lines and lines that are not a JSON object (a
     * torn last line) are skipped; an absent file has none. Any other failure to read names the file.
     */
    public static List<Map<String, Object>> readObjectLines(Path file) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) return out;
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank()) continue;
                try {
                    out.add(parseObject(line));
                } catch (IllegalArgumentException torn) {
                    // a line cut by a kill mid-append: what it held is redone or lost, never misread
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static String msg(IOException e) {
        return e instanceof JsonProcessingException jp ? jp.getOriginalMessage() : e.getMessage();
    }
}
