package io.skillopt4j.internal;

import com.fasterxml.jackson.databind.ObjectWriter;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Differential: the plain-data path of {@link Json} writes exactly what the mapper's writers write. */
class PlainJsonTest {
    private static final ObjectWriter PRETTY = Json.mapper().writer(new Json.PythonPrettyPrinter());
    private static final ObjectWriter LINE = Json.mapper().writer(new Json.PythonLinePrinter());

    @Test
    void randomTreesWriteAsTheMapperWritesThem() throws Exception {
        Random rnd = new Random(20261204);
        for (int i = 0; i < 3000; i++) {
            Object v = value(rnd, 0);
            assertTrue(PlainJsonText.write(v, PlainJsonText.COMPACT) != null, "generated trees are plain: " + v);
            assertEquals(PRETTY.writeValueAsString(v), Json.pretty(v), "pretty of " + v);
            assertEquals(LINE.writeValueAsString(v), Json.line(v), "line of " + v);
            assertEquals(Json.mapper().writeValueAsString(v), Json.compact(v), "compact of " + v);
        }
    }

    @Test
    void edgeValuesWriteAsTheMapperWritesThem() throws Exception {
        List<Object> edge = new ArrayList<>(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 1e-7, 1e21,
                0.1f, Float.NaN, Long.MIN_VALUE, (short) -3, (byte) 7, new BigDecimal("1E+3"), new BigDecimal("0.000"),
                new BigInteger("123456789012345678901234567890"), "", "\u0000\u001f\"\\/\n\t", controls(), "\ud800 lone \udfff", "é漢字😀\u2028", true, false,
                Map.of(), List.of(), new String[] {"a", null}, new Object[0], Collections.unmodifiableMap(new LinkedHashMap<>(Map.of("k", 1))),
                new TreeMap<>(Map.of("b", 2, "a", 1)), new LinkedHashSet<>(List.of(3, 1, 2))));
        edge.add(null);
        for (Object v : edge) {
            Object wrapped = new LinkedHashMap<>(Collections.singletonMap("v", v));
            for (Object x : new Object[] {v, wrapped, Collections.singletonList(v)}) {
                assertEquals(PRETTY.writeValueAsString(x), Json.pretty(x), "pretty of " + x);
                assertEquals(LINE.writeValueAsString(x), Json.line(x), "line of " + x);
                assertEquals(Json.mapper().writeValueAsString(x), Json.compact(x), "compact of " + x);
            }
        }
    }

    record Bean(String name, int n) {}

    @Test
    void anythingElseGoesThroughTheMapper() throws Exception {
        Map<String, Object> withRecord = new LinkedHashMap<>();
        withRecord.put("bean", new Bean("x", 1));
        Map<Object, Object> intKeys = new HashMap<>(Map.of(1, "one"));
        for (Object v : List.of(new Bean("y", 2), withRecord, intKeys, new int[] {1, 2}, new java.util.concurrent.atomic.AtomicInteger(5),
                new StringBuilder("sb"), 'c')) {
            assertNull(PlainJsonText.write(v, PlainJsonText.LINE), "not plain: " + v);
            assertEquals(PRETTY.writeValueAsString(v), Json.pretty(v));
            assertEquals(LINE.writeValueAsString(v), Json.line(v));
        }
        List<Object> deep = new ArrayList<>();
        List<Object> at = deep;
        for (int i = 0; i < 300; i++) { List<Object> next = new ArrayList<>(); at.add(next); at = next; }
        assertNull(PlainJsonText.write(deep, PlainJsonText.LINE), "deeper than the limit goes to the mapper");
        assertEquals(LINE.writeValueAsString(deep), Json.line(deep));
    }

    @Test
    void readingGivesWhatTheMappersUntypedDeserializerGives() throws Exception {
        Random rnd = new Random(4);
        List<String> texts = new ArrayList<>(List.of("0", "-0", "2147483647", "2147483648", "-9223372036854775809", "1.0", "-0.0",
                "1e400", "1E-5", "NaN", "-Infinity", "\"s\"", "true", "null", "[]", "{}", "{\"a\": 1, \"a\": 2}",
                "{\"a\": 1} trailing", "[1, 2] [3]", "/* c */ {\"x\": [1.5, {\"y\": null}]} // end", "123456789012345678901234567890"));
        for (int i = 0; i < 2000; i++) texts.add(Json.mapper().writeValueAsString(value(rnd, 0)));
        for (String t : texts) {
            Object expected = Json.mapper().readValue(t, Object.class);
            assertEquals(expected, Json.parse(t), "parse of " + t);
            assertEquals(typeTree(expected), typeTree(Json.parse(t)), "number types of " + t);
            if (expected instanceof Map) assertEquals(Json.mapper().readValue(t, LinkedHashMap.class), Json.parseObject(t));
            if (expected instanceof List) assertEquals(Json.mapper().readValue(t, ArrayList.class), Json.parseArray(t));
        }
    }

    @Test
    void badInputKeepsTheMappersMessages() {
        for (String bad : List.of("", "   ", "{\"a\": ", "[1, 2", "{\"a\" 1}", "tru")) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Json.parse(bad));
            String mapper = "";
            try { Json.mapper().readValue(bad, Object.class); } catch (Exception x) {
                mapper = ((com.fasterxml.jackson.core.JsonProcessingException) x).getOriginalMessage();
            }
            assertEquals("not JSON: " + mapper, e.getMessage(), "message for " + bad);
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Json.parseObject("[1]"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Json.parseArray("{}"));
    }

    private static Object typeTree(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k, typeTree(x)));
            return List.of(v.getClass().getName(), out);
        }
        if (v instanceof List<?> l) return List.of(v.getClass().getName(), l.stream().map(PlainJsonTest::typeTree).toList());
        return v == null ? "null" : v.getClass().getName();
    }

    static Object value(Random r, int depth) {
        int k = r.nextInt(depth > 4 ? 9 : 13);
        switch (k) {
            case 0: return null;
            case 1: return r.nextBoolean();
            case 2: return r.nextInt();
            case 3: return r.nextLong();
            case 4: return r.nextDouble() * Math.pow(10, r.nextInt(40) - 20);
            case 5: return text(r);
            case 6: return new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(20) - 10);
            case 7: return (double) r.nextInt(100);
            case 8: return r.nextFloat();
            case 9: case 10: {
                Map<String, Object> m = r.nextBoolean() ? new LinkedHashMap<>() : new HashMap<>();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) m.put(text(r), value(r, depth + 1));
                return r.nextInt(4) == 0 ? Collections.unmodifiableMap(m) : m;
            }
            default: {
                List<Object> l = new ArrayList<>();
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) l.add(value(r, depth + 1));
                return r.nextInt(4) == 0 ? Collections.unmodifiableList(l) : l;
            }
        }
    }

    private static String controls() {
        StringBuilder sb = new StringBuilder();
        for (char c = 0; c < 0xA0; c++) sb.append(c);
        return sb.toString();
    }

    private static String text(Random r) {
        String alphabet = "ab \"\\\n\t\u0001é漢😀/<>&'";
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(8);
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(alphabet.length());
            sb.append(alphabet.charAt(c));
        }
        return sb.toString();
    }
}
