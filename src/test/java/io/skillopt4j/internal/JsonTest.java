package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
