package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonTest {
    @Test void readObjectLinesSkipsBlankAndTornLinesAndReadsAnAbsentFileAsEmpty(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("rows.jsonl");
        Files.writeString(f, "{\"id\": 1}\n\n[1, 2]\n{\"id\": 2, \"x\": \"a\"}\n{\"id\": 3, \"x\": \"cut");
        assertEquals(List.of(Map.of("id", 1), Map.of("id", 2, "x", "a")), Json.readObjectLines(f));
        assertEquals(List.of(), Json.readObjectLines(dir.resolve("absent.jsonl")));
        assertEquals(List.of(), Json.readObjectLines(dir)); // a folder is not a file of rows
    }

    @Test
    void prettyMatchesPythonJsonDumpsIndent2() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("step", 1);
        m.put("score", 0.5);
        m.put("empty_list", List.of());
        m.put("empty_map", Map.of());
        m.put("nested", List.of(Map.of("a", "é"), 2));
        // expected text produced by: json.dumps(m, indent=2, ensure_ascii=False)
        String expected = "{\n  \"step\": 1,\n  \"score\": 0.5,\n  \"empty_list\": [],\n  \"empty_map\": {},\n"
                + "  \"nested\": [\n    {\n      \"a\": \"é\"\n    },\n    2\n  ]\n}";
        assertEquals(expected, Json.pretty(m));
    }

    @Test
    void lineMatchesPythonJsonDumpsDefaultSeparators() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", "q1");
        m.put("hard", 1);
        m.put("tags", List.of("x", "y"));
        assertEquals("{\"id\": \"q1\", \"hard\": 1, \"tags\": [\"x\", \"y\"]}", Json.line(m));
    }

    /** Expected texts printed by python3's json.dumps(v, ensure_ascii=False) for the same values. */
    @Test
    void floatsAndEscapesAreWrittenAsPythonWritesThem() {
        List<Object> floats = List.of(0.5, 1e-05, 0.0001, 1e16, 1e15, 1234567890123456.0, 12345678901234567.0, 10000000.0,
                0.1 + 0.2, -0.0, 2.5e-300, 5e-324, Double.MAX_VALUE, 100.0, -1.5e-7, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0 / 3, 123456.789);
        // json.dumps([0.5, 1e-05, 0.0001, 1e16, 1e15, 1234567890123456.0, 12345678901234567.0, 10000000.0, 0.1+0.2,
        //   -0.0, 2.5e-300, 5e-324, 1.7976931348623157e308, 100.0, -1.5e-7, nan, inf, -inf, 1/3, 123456.789])
        assertEquals("[0.5, 1e-05, 0.0001, 1e+16, 1000000000000000.0, 1234567890123456.0, 1.2345678901234568e+16, "
                + "10000000.0, 0.30000000000000004, -0.0, 2.5e-300, 5e-324, 1.7976931348623157e+308, 100.0, -1.5e-07, "
                + "NaN, Infinity, -Infinity, 0.3333333333333333, 123456.789]", Json.line(floats));
        // json.dumps({"s": "\x00\x1f\"\\/\n\t\b\f\r\x7f é漢😀\u2028"}, ensure_ascii=False)
        assertEquals("{\"s\": \"\\u0000\\u001f\\\"\\\\/\\n\\t\\b\\f\\r\u007f é漢😀\u2028\"}",
                Json.line(Map.of("s", "\u0000\u001f\"\\/\n\t\b\f\r\u007f é漢😀\u2028")));
        record Scores(double hard, float soft) {}
        assertEquals("{\n  \"hard\": 1e-05,\n  \"soft\": 0.1\n}", Json.pretty(new Scores(1e-5, 0.1f)));
        assertEquals("[1e+16,NaN]", Json.compact(List.of(1e16, Double.NaN)));
        assertEquals("{\"x\": 1e-05, \"y\": [10000000.0]}", Json.line(Json.tree("{\"x\": 0.00001, \"y\": [1E7]}")), "trees too");
        assertEquals(List.of(1e16, 1e-5), Json.parse(Json.line(List.of(1e16, 1e-5))), "Python's layout reads back");
        assertEquals(Double.NaN, (Double) Json.parseArray("[NaN]").get(0));
    }

    @Test
    void redactorMasksSecretKeysLikeUpstream() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("api_key", "sk-abcdefghijklmnop");
        m.put("minimax_api_key", "short");
        m.put("model", "gpt-5.5");
        Map<String, Object> r = Redactor.redact(m);
        assertEquals("sk-a...mnop", r.get("api_key"));
        assertEquals("*****", r.get("minimax_api_key"));
        assertEquals("gpt-5.5", r.get("model"));
        assertEquals("key sk-a...mnop used", Redactor.scrub("key sk-abcdefghijklmnop used"));
    }

    /** Json.read copies a tree into what readValue(text, Object.class) returns: same values, same classes. */
    @Test void readReturnsWhatJacksonsUntypedReadReturns(@TempDir Path dir) throws Exception {
        List<String> docs = List.of("{}", "[]", "null", "true", "\"s\"", "0", "-0", "-0.0", "1.0", "1e500", "NaN",
                "-Infinity", "2147483647", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
                "123456789012345678901234567890", "0.1000000000000000055511151231257827", "1.5E-7",
                "{\"a\": 1, \"a\": [2, {\"b\": null}]}", "{\"k\": \"\\u00e9\\n\", \"x\": false} trailing",
                "// comment\n[1, /* c */ 2.5, \"3\", [[], {}]]", "  [\"\\ud83d\\ude00\"]  ");
        int n = 0;
        for (String doc : docs) assertSameAsUntyped(dir.resolve("d" + n++ + ".json"), doc);
        Random r = new Random(7);
        for (int i = 0; i < 2000; i++) assertSameAsUntyped(dir.resolve("r" + i + ".json"), randomDoc(r, 0));
        try (Stream<Path> files = Files.walk(Path.of("src"))) { // every JSON file the project ships or tests with
            for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".json"))::iterator) {
                String text = Files.readString(f);
                Object expected;
                try { expected = Json.mapper().readValue(text, Object.class); } catch (Exception e) { continue; }
                assertSameClasses(expected, Json.read(f), f.toString());
            }
        }
    }

    @Test void readFailsAsTheUntypedReadFailsAndNamesTheFile(@TempDir Path dir) throws Exception {
        for (String bad : List.of("", "   ", "{\"a\": ", "[1, 2", "{\"a\" 1}", "tru")) {
            Path f = Files.writeString(dir.resolve("bad.json"), bad);
            Exception expected = assertThrows(Exception.class, () -> Json.mapper().readValue(bad, Object.class));
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Json.read(f));
            assertEquals(f + ": " + expected.getMessage(), e.getMessage());
        }
    }

    private static void assertSameAsUntyped(Path f, String doc) throws Exception {
        Files.writeString(f, doc);
        assertSameClasses(Json.mapper().readValue(doc, Object.class), Json.read(f), doc);
    }

    private static void assertSameClasses(Object expected, Object actual, String where) {
        assertEquals(expected, actual, where);
        if (expected == null) return;
        assertEquals(expected.getClass(), actual.getClass(), where);
        if (expected instanceof Map<?, ?> m) {
            assertEquals(List.copyOf(m.keySet()), List.copyOf(((Map<?, ?>) actual).keySet()), where);
            for (Object k : m.keySet()) assertSameClasses(m.get(k), ((Map<?, ?>) actual).get(k), where);
        } else if (expected instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) assertSameClasses(l.get(i), ((List<?>) actual).get(i), where);
        }
    }

    private static String randomDoc(Random r, int depth) {
        int kind = depth > 3 ? 2 + r.nextInt(6) : r.nextInt(8);
        StringBuilder b = new StringBuilder();
        switch (kind) {
            case 0 -> {
                b.append('{');
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) b.append(i > 0 ? "," : "").append("\"k").append(r.nextInt(3)).append("\":")
                        .append(randomDoc(r, depth + 1));
                b.append('}');
            }
            case 1 -> {
                b.append('[');
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) b.append(i > 0 ? "," : "").append(randomDoc(r, depth + 1));
                b.append(']');
            }
            case 2 -> b.append(r.nextInt());
            case 3 -> b.append(r.nextLong()).append(r.nextBoolean() ? "" : String.valueOf(r.nextInt(1000)));
            case 4 -> b.append(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20));
            case 5 -> b.append('"').append(r.nextBoolean() ? "\\u00" + (10 + r.nextInt(80)) : "x").append('"');
            case 6 -> b.append(r.nextBoolean());
            default -> b.append("null");
        }
        return b.toString();
    }
}
