package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SplitCommandTest {
    @TempDir Path tmp;

    private int run(StringWriter out, StringWriter err, String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void split_writes_the_same_files_and_manifest_as_ratio_mode() throws Exception {
        List<Object> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) rows.add(Map.of("id", "q" + i));
        Path data = tmp.resolve("raw.json");
        Files.writeString(data, Json.pretty(rows));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "split", "--data", data.toString(), "--ratio", "2:1:7", "--seed", "42", "--out", tmp.resolve("s").toString()));
        assertTrue(out.toString().contains("train=2 val=1 test=7"), out.toString());
        assertEquals(List.of(Map.of("id", "q7"), Map.of("id", "q3")), Json.read(tmp.resolve("s/train/items.json")));
        Map<?, ?> manifest = (Map<?, ?>) Json.read(tmp.resolve("s/split_manifest.json"));
        assertEquals(42, manifest.get("split_seed"));
        assertEquals(Map.of("train", 2, "val", 1, "test", 7), manifest.get("counts"));
    }

    @Test
    void a_bad_ratio_or_missing_file_exits_2_with_one_line() throws Exception {
        Path data = tmp.resolve("raw.json");
        Files.writeString(data, "[{\"id\": \"a\"}]");
        StringWriter err = new StringWriter();
        assertEquals(2, run(new StringWriter(), err, "split", "--data", data.toString(), "--ratio", "2:0:x", "--out", tmp.resolve("s").toString()));
        assertEquals("error: split_ratio must contain integers, got '2:0:x'", err.toString().trim());
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(new StringWriter(), err2, "split", "--data", tmp.resolve("nope.json").toString(), "--out", tmp.resolve("s").toString()));
        assertEquals(1, err2.toString().trim().lines().count());
        assertTrue(err2.toString().contains("nope.json"));
    }
}
