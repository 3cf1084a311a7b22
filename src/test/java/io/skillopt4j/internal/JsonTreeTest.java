package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Differential: what {@link Json} and {@link JsonReply} read without building a mapper (trees, bodies, untyped values,
 * error messages, the reply repair's lenient read) is what the mapper reads.
 */
class JsonTreeTest {
    private static final List<String> EDGES = List.of("0", "-0", "2147483647", "2147483648", "-2147483649",
            "9223372036854775807", "-9223372036854775809", "123456789012345678901234567890", "1.0", "-0.0", "1e400",
            "1E-5", "3.4028235E38", "NaN", "-Infinity", "Infinity", "\"s\"", "true", "false", "null", "[]", "{}",
            "{\"a\": 1, \"b\": 2, \"a\": 3}", "{\"a\": 1} trailing", "[1, 2] [3]", "  [ ]  ",
            "/* c */ {\"x\": [1.5, {\"y\": null}]} // end", "{\"\": {\"\": []}}", "\"\\u00e9\\ud83d\\ude00\"");

    @Test
    void treesAreTheMappersTrees() throws Exception {
        Random rnd = new Random(1204);
        List<String> texts = new ArrayList<>(EDGES);
        for (int i = 0; i < 2000; i++) texts.add(Json.mapper().writeValueAsString(PlainJsonTest.value(rnd, 0)));
        String deep = "[".repeat(600) + "]".repeat(600); // past PlainJson's depth: the mapper reads it
        texts.add(deep);
        for (String t : texts) {
            JsonNode expected = Json.mapper().readTree(t);
            JsonNode tree = Json.tree(t);
            assertEquals(expected, tree, "tree of " + t);
            assertEquals(expected.toString(), tree.toString(), "key order of " + t);
            assertEquals(shape(expected), shape(tree), "node classes of " + t);
        }
        assertEquals(Json.mapper().readTree(""), Json.tree(""), "no content: a missing node");
        assertEquals(Json.mapper().readTree("  "), Json.tree("  "));
    }

    @Test
    void bodiesAreReadWholeInAnyUnicodeEncoding() throws Exception {
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            String t = Json.mapper().writeValueAsString(PlainJsonTest.value(rnd, 0));
            for (Charset cs : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
                // against the mapper reading the same bytes, as Http did before: Jackson's byte parser can differ
                // from its String parser (seen: keys with control characters after an empty container)
                JsonNode expected = Json.mapper().readTree(t.getBytes(cs)), tree = Json.bodyTree(t.getBytes(cs));
                assertEquals(expected, tree, cs + ": " + t);
                assertEquals(shape(expected), shape(tree));
            }
        }
        assertEquals(Json.mapper().readTree("{\"a\": [1]}"), Json.bodyTree("{\"a\": [1]} {\"b\": 2}".getBytes(StandardCharsets.UTF_8)));
        assertNull(Json.bodyTree("  ".getBytes(StandardCharsets.UTF_8)));
        // the whole body is checked, not only its first value
        assertThrows(JsonProcessingException.class, () -> Json.bodyTree("{\"a\": 1} {".getBytes(StandardCharsets.UTF_8)));
        assertThrows(JsonProcessingException.class, () -> Json.bodyTree("<html>".getBytes(StandardCharsets.UTF_8)));
        String deep = "[".repeat(600) + "]".repeat(600);
        assertEquals(Json.mapper().readTree(deep), Json.bodyTree(deep.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void badInputKeepsTheMappersMessages() {
        Random rnd = new Random(11);
        List<String> bad = new ArrayList<>(List.of("{\"a\": ", "[1, 2", "{\"a\" 1}", "tru", "{\"a\": 1,}", "[1,,2]", "\"open", "{'a': 1}"));
        for (int i = 0; i < 500; i++) {
            String t = Json.line(PlainJsonTest.value(rnd, 0));
            if (t.length() > 1) bad.add(t.substring(0, 1 + rnd.nextInt(t.length() - 1))); // cut anywhere
        }
        for (String t : bad) {
            String mapper = null;
            try { Json.mapper().readTree(t); } catch (JsonProcessingException x) { mapper = "not JSON: " + x.getOriginalMessage(); }
            String ours = null;
            try { Json.tree(t); } catch (IllegalArgumentException x) { ours = x.getMessage(); }
            assertEquals(mapper, ours, "outcome for " + t);
        }
    }

    @Test
    void parseErrorsAreTheMappersWithoutTheMapper() throws Exception {
        Random rnd = new Random(12);
        List<String> bad = new ArrayList<>(List.of("", "  ", "{\"a\": ", "[1, 2", "tru", "{\"a\": 1,}", "[1] ", "{} ", "\"s\"", "5"));
        for (int i = 0; i < 500; i++) {
            String t = Json.line(PlainJsonTest.value(rnd, 0));
            if (t.length() > 1) bad.add(t.substring(0, 1 + rnd.nextInt(t.length() - 1)));
        }
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("json-read");
        try {
            for (String t : bad) {
                assertEquals(outcome(() -> Json.mapper().readValue(t, Object.class), "not JSON: "), outcome(() -> Json.parse(t), null), "parse " + t);
                assertEquals(outcome(() -> Json.mapper().readValue(t, new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Object>>() {}), "not a JSON object: "),
                        outcome(() -> Json.parseObject(t), null), "parseObject " + t);
                assertEquals(outcome(() -> Json.mapper().readValue(t, new com.fasterxml.jackson.core.type.TypeReference<ArrayList<Object>>() {}), "not a JSON array: "),
                        outcome(() -> Json.parseArray(t), null), "parseArray " + t);
                if (!StandardCharsets.UTF_8.newEncoder().canEncode(t)) continue; // a cut through a surrogate pair
                java.nio.file.Path f = dir.resolve("f.json");
                java.nio.file.Files.writeString(f, t);
                String mapper = outcome(() -> Json.mapper().readValue(t, Object.class), null);
                String ours = outcome(() -> Json.read(f), null);
                assertEquals(mapper.startsWith("value ") ? mapper : f + ": " + mapper.substring(mapper.indexOf(':') + 2), ours, "read " + t);
            }
        } finally {
            AtomicFiles.deleteTreeQuietly(dir);
        }
    }

    /** "value " + the value, or the prefix + the failure's original message (the full message when prefix is null). */
    private static String outcome(java.util.concurrent.Callable<Object> c, String prefix) {
        try {
            return "value " + c.call();
        } catch (JsonProcessingException e) {
            return prefix != null ? prefix + e.getOriginalMessage() : "x: " + e.getMessage();
        } catch (Exception e) {
            return e.getMessage();
        }
    }

    @Test
    void theRepairReadsAsAMapperOnItsFeatures() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper lenient = com.fasterxml.jackson.databind.json.JsonMapper.builder()
                .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                        JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
                        JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS, JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS, JsonReadFeature.ALLOW_MISSING_VALUES)
                .build(); // JsonReply's features, as its mapper had them
        Random rnd = new Random(13);
        List<String> texts = new ArrayList<>(List.of("{'a': 1}", "{a: 'b', c: [1, 2,], }", "{\"a\": +1, \"b\": .5, \"c\": NaN}",
                "{\"a\": [1,,2], \"b\": \"x\ty\"} trailing", "/* c */ {\"a\": \"\\q\"} // e", "[1, 2]", "\"s\"", "0012"));
        for (int i = 0; i < 1000; i++) texts.add(Json.line(PlainJsonTest.value(rnd, 0)));
        texts.add("[".repeat(600) + "]".repeat(600));
        for (String t : texts) {
            assertEquals(outcome(() -> lenient.readValue(t, Object.class), ""), outcome(() -> JsonReply.lenientRead(t), ""), t);
        }
    }

    @Test
    void theFactoryHasTheMappersFeatures() {
        JsonFactory mine = Json.FACTORY, mappers = Json.mapper().getFactory();
        for (JsonParser.Feature f : JsonParser.Feature.values()) assertEquals(mappers.isEnabled(f), mine.isEnabled(f), f.name());
        for (JsonGenerator.Feature f : JsonGenerator.Feature.values()) assertEquals(mappers.isEnabled(f), mine.isEnabled(f), f.name());
        for (JsonFactory.Feature f : JsonFactory.Feature.values()) assertEquals(mappers.isEnabled(f), mine.isEnabled(f), f.name());
        assertEquals(mappers.getFormatParserFeatures(), mine.getFormatParserFeatures());
        assertEquals(mappers.getFormatGeneratorFeatures(), mine.getFormatGeneratorFeatures());
    }

    private static String shape(JsonNode n) {
        StringBuilder sb = new StringBuilder(n.getClass().getSimpleName());
        if (n.isContainerNode()) {
            sb.append('(');
            n.fields().forEachRemaining(e -> sb.append(e.getKey()).append('=').append(shape(e.getValue())).append(','));
            if (n.isArray()) n.forEach(c -> sb.append(shape(c)).append(','));
            sb.append(')');
        }
        return sb.toString();
    }
}
