package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Trees, whole bodies and the reply repair's lenient read, through the project's one mapper. */
class JsonTreeTest {
    @Test
    void bodiesAreReadWholeInAnyUnicodeEncoding() throws Exception {
        String t = "{\"a\": [1, 2.5, \"é😀\"], \"b\": null}";
        for (Charset cs : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
            assertEquals(Json.tree(t), Json.bodyTree(t.getBytes(cs)), cs.name());
        }
        assertEquals(Json.tree("{\"a\": [1]}"), Json.bodyTree("{\"a\": [1]} {\"b\": 2}".getBytes(StandardCharsets.UTF_8)));
        assertNull(Json.bodyTree("  ".getBytes(StandardCharsets.UTF_8)));
        // the whole body is checked, not only its first value
        assertThrows(JsonProcessingException.class, () -> Json.bodyTree("{\"a\": 1} {".getBytes(StandardCharsets.UTF_8)));
        assertThrows(JsonProcessingException.class, () -> Json.bodyTree("<html>".getBytes(StandardCharsets.UTF_8)));
        String deep = "[".repeat(600) + "]".repeat(600);
        assertEquals(Json.tree(deep), Json.bodyTree(deep.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void treesKeepKeyOrderAndNumberKindsAndNoContentIsMissing() {
        assertEquals("{\"b\":1,\"a\":3}", Json.tree("{\"b\": 1, \"a\": 2, \"a\": 3}").toString());
        assertTrue(Json.tree("2147483648").isLong());
        assertTrue(Json.tree("1.5").isDouble());
        assertTrue(Json.tree("NaN").isDouble(), "Python may write NaN");
        assertTrue(Json.tree("  ").isMissingNode());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.tree("{\"a\": "));
        assertTrue(e.getMessage().startsWith("not JSON: Unexpected end-of-input"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Json.parseObject("[1]"));
        assertThrows(IllegalArgumentException.class, () -> Json.parseArray("{}"));
        assertInstanceOf(Map.class, Json.parse("/* a comment */ {\"x\": 1}"));
    }

    @Test
    void theRepairReadsAsAMapperOnItsFeatures() throws Exception {
        ObjectMapper lenient = JsonMapper.builder()
                .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                        JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
                        JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS, JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS, JsonReadFeature.ALLOW_MISSING_VALUES)
                .build();
        List<String> texts = new ArrayList<>(List.of("{'a': 1}", "{a: 'b', c: [1, 2,], }", "{\"a\": +1, \"b\": .5, \"c\": NaN}",
                "{\"a\": [1,,2], \"b\": \"x\ty\"} trailing", "/* c */ {\"a\": \"\\q\"} // e", "[1, 2]", "\"s\"", "0012", "{\"a\" 1}"));
        for (String t : texts) {
            assertEquals(outcome(() -> lenient.readValue(t, Object.class)), outcome(() -> JsonReply.lenientRead(t)), t);
        }
    }

    private static String outcome(java.util.concurrent.Callable<Object> c) {
        try {
            return "value " + c.call();
        } catch (JsonProcessingException e) {
            return e.getOriginalMessage();
        } catch (Exception e) {
            return e.getMessage();
        }
    }
}
