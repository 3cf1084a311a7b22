package io.skillopt4j.env;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SplitDataLoaderTest {
    @TempDir Path tmp;

    @SuppressWarnings("unchecked")
    static Map<String, Object> vectors() throws Exception {
        try (InputStream in = SplitDataLoaderTest.class.getResourceAsStream("/env/split_vectors.json")) {
            return Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static int[] ints(Object o) { return ((List<?>) o).stream().mapToInt(x -> ((Number) x).intValue()).toArray(); }

    private static List<String> ids(List<Item> items) { return items.stream().map(Item::id).toList(); }

    private Path rawFile(String name, int n, String prefix) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) rows.add(new LinkedHashMap<>(Map.of("id", prefix + i, "question", "Q" + i)));
        Path f = tmp.resolve(name);
        Files.writeString(f, Json.pretty(rows));
        return f;
    }

    private SplitDataLoader ratio(Path data, String ratio, long seed) {
        FlatConfig cfg = FlatConfig.of(Map.of("split_mode", "ratio", "data_path", data.toString(), "split_ratio", ratio, "split_seed", seed));
        return SplitDataLoader.builder("searchqa").config(cfg).outRoot(tmp.resolve("run")).build();
    }

    @Test
    @SuppressWarnings("unchecked")
    void largest_remainder_counts_equal_python() throws Exception {
        for (Object o : (List<Object>) vectors().get("counts")) {
            Map<String, Object> c = (Map<String, Object>) o;
            int total = ((Number) c.get("total")).intValue();
            assertArrayEquals(ints(c.get("counts")), RatioSplit.counts(total, ints(c.get("weights"))), "total " + total);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void ratio_splits_equal_python_for_several_seeds() throws Exception {
        for (Object o : (List<Object>) vectors().get("ratio")) {
            Map<String, Object> c = (Map<String, Object>) o;
            int n = ((Number) c.get("n")).intValue();
            int[] w = ints(c.get("weights"));
            long seed = ((Number) c.get("seed")).longValue();
            String ratio = w[0] + ":" + w[1] + ":" + w[2];
            SplitDataLoader d = ratio(rawFile("raw" + n + "_" + seed + ".json", n, "q"), ratio, seed);
            assertEquals(c.get("train"), ids(d.split("train")), "seed " + seed);
            assertEquals(c.get("val"), ids(d.split("valid_seen")), "seed " + seed);
            assertEquals(c.get("test"), ids(d.split("valid_unseen")), "seed " + seed);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void ratio_mode_writes_items_and_manifest_under_generated_splits_only_when_asked() throws Exception {
        SplitDataLoader d = ratio(rawFile("raw.json", 10, "q"), "2:1:7", 42);
        Path dir = tmp.resolve("run/_generated_splits/searchqa_2-1-7_seed42").toAbsolutePath().normalize();
        assertEquals(dir, d.splitDir());
        assertFalse(Files.exists(tmp.resolve("run")), "building the loader writes nothing: a run writes the splits once its folder is checked");
        d.writeGenerated();
        Map<String, Object> manifest = (Map<String, Object>) Json.read(dir.resolve("split_manifest.json"));
        assertEquals(List.of("source_data_path", "split_mode", "split_ratio", "split_seed", "counts"), new ArrayList<>(manifest.keySet()));
        assertEquals("ratio", manifest.get("split_mode"));
        assertEquals("2:1:7", manifest.get("split_ratio"));
        assertEquals(Map.of("train", 2, "val", 1, "test", 7), manifest.get("counts"));
        List<Object> test = (List<Object>) Json.read(dir.resolve("test/items.json"));
        assertEquals(7, test.size());
        assertEquals(Map.of("id", "q8", "question", "Q8"), test.get(0));
    }

    @Test
    void jsonl_and_data_wrapped_raw_files_are_accepted() throws Exception {
        Path jsonl = tmp.resolve("raw.jsonl");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 10; i++) sb.append(Json.compact(Map.of("id", "q" + i))).append("\n\n");
        Files.writeString(jsonl, sb.toString());
        assertEquals(List.of("q7", "q3"), ids(ratio(jsonl, "2:1:7", 42).split("train")));
        Path wrapped = tmp.resolve("wrapped.json");
        List<Object> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) rows.add(Map.of("id", "q" + i));
        Files.writeString(wrapped, Json.compact(Map.of("data", rows)));
        assertEquals(List.of("q7", "q3"), ids(ratio(wrapped, "2::1:7", 42).split("train")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void epoch_plans_and_train_batches_equal_python() throws Exception {
        Map<String, Object> v = vectors();
        SplitDataLoader d = splitDir(23, 2, 2);
        for (Object o : (List<Object>) v.get("train_batch")) {
            Map<String, Object> c = (Map<String, Object>) o;
            BatchSpec b = d.buildTrainBatch(((Number) c.get("batch_size")).intValue(), ((Number) c.get("seed")).longValue());
            assertEquals(c.get("ids"), ids(b.items()));
        }
        for (Object o : (List<Object>) v.get("epochs")) {
            Map<String, Object> c = (Map<String, Object>) o;
            List<BatchSpec> plan = d.planTrainEpoch(((Number) c.get("epoch")).intValue(), ((Number) c.get("steps")).intValue(),
                    ((Number) c.get("accum")).intValue(), ((Number) c.get("batch_size")).intValue(), ((Number) c.get("seed")).longValue());
            List<Map<String, Object>> expected = (List<Map<String, Object>>) c.get("batches");
            assertEquals(expected.size(), plan.size());
            for (int i = 0; i < plan.size(); i++) {
                assertEquals(((Number) expected.get(i).get("seed")).longValue(), plan.get(i).seed());
                assertEquals(expected.get(i).get("ids"), ids(plan.get(i).items()), "epoch " + c.get("epoch") + " batch " + i);
            }
        }
    }

    private SplitDataLoader splitDir(int nTrain, int nVal, int nTest) throws Exception {
        Path dir = tmp.resolve("splits");
        int[] n = {nTrain, nVal, nTest};
        String[] prefix = {"t", "v", "x"};
        for (int s = 0; s < 3; s++) {
            List<Object> rows = new ArrayList<>();
            for (int i = 0; i < n[s]; i++) rows.add(Map.of("id", prefix[s] + i));
            Files.createDirectories(dir.resolve(RatioSplit.SPLITS.get(s)));
            Files.writeString(dir.resolve(RatioSplit.SPLITS.get(s)).resolve("items.json"), Json.pretty(rows));
        }
        return SplitDataLoader.builder("x").config(FlatConfig.of(Map.of("split_dir", dir.toString()))).build();
    }

    @Test
    void eval_batches_are_file_order_prefixes_and_unknown_split_names_mean_val() throws Exception {
        SplitDataLoader d = splitDir(4, 5, 6);
        assertEquals(List.of("v0", "v1"), ids(d.buildEvalBatch(2, "valid_seen", 42).items()));
        assertEquals(5, d.buildEvalBatch(0, "selection", 42).size());
        assertEquals(5, d.buildEvalBatch(99, "val", 42).size());
        assertEquals(List.of("x0", "x1", "x2"), ids(d.buildEvalBatch(3, "valid_unseen", 42).items()));
        assertEquals("v0", d.buildEvalBatch(0, "nonsense", 42).items().get(0).id());
        assertEquals("eval", d.buildEvalBatch(0, "test", 1).phase());
        assertEquals(4, d.trainSize());
    }

    @Test
    void limit_truncates_every_split_to_its_prefix() throws Exception {
        splitDir(4, 5, 6);
        SplitDataLoader d = SplitDataLoader.builder("x").config(FlatConfig.of(Map.of("split_dir", tmp.resolve("splits").toString(), "limit", 2))).build();
        assertEquals(List.of("t0", "t1"), ids(d.split("train")));
        assertEquals(List.of("v0", "v1"), ids(d.split("val")));
        assertEquals(List.of("x0", "x1"), ids(d.split("test")));
    }

    @Test
    void bad_ratios_give_one_line_errors() {
        for (String[] c : new String[][] {{"2:0:x", "split_ratio must contain integers, got '2:0:x'"},
                {"2:0:7", "split_ratio parts must be positive, got '2:0:7'"}, {"7267", "split_ratio must be in train:val:test form"},
                {"2.5:1:7", "split_ratio must contain integers"}}) {
            ConfigException e = assertThrows(ConfigException.class, () -> ratio(rawFile("r.json", 10, "q"), c[0], 42));
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void missing_files_empty_splits_and_bad_rows_name_file_index_and_field() throws Exception {
        ConfigException e1 = assertThrows(ConfigException.class, () -> ratio(tmp.resolve("nope.json"), "2:1:7", 42));
        assertTrue(e1.getMessage().contains("nope.json"), e1.getMessage());
        Path empty = tmp.resolve("empty.json");
        Files.writeString(empty, "[]");
        assertTrue(assertThrows(ConfigException.class, () -> ratio(empty, "2:1:7", 42)).getMessage().startsWith("No raw items available"));
        SplitDataLoader ok = splitDir(3, 1, 1);
        assertEquals(3, ok.trainSize());
        Path splits = tmp.resolve("splits");
        Files.writeString(splits.resolve("train/items.json"), "[]");
        assertTrue(assertThrows(ConfigException.class, () -> SplitDataLoader.builder("x")
                .config(FlatConfig.of(Map.of("split_dir", splits.toString()))).build()).getMessage().contains("is empty"));
        Files.writeString(splits.resolve("train/items.json"), "[{\"id\":\"a\"},{\"question\":\"no id\"}]");
        ConfigException e3 = assertThrows(ConfigException.class, () -> SplitDataLoader.builder("x")
                .config(FlatConfig.of(Map.of("split_dir", splits.toString()))).build());
        assertEquals(splits.resolve("train/items.json") + ": item 1: field \"id\" missing (expected a string id)", e3.getMessage());
        Files.writeString(splits.resolve("train/items.json"), "{\"id\":\"a\"}");
        assertTrue(assertThrows(ConfigException.class, () -> SplitDataLoader.builder("x")
                .config(FlatConfig.of(Map.of("split_dir", splits.toString()))).build()).getMessage().startsWith("Expected JSON array in"));
        Files.delete(splits.resolve("test/items.json"));
        Files.delete(splits.resolve("test"));
        assertTrue(assertThrows(ConfigException.class, () -> SplitDataLoader.builder("x")
                .config(FlatConfig.of(Map.of("split_dir", splits.toString()))).build()).getMessage().contains("Missing 'test/' subdirectory"));
        assertTrue(assertThrows(ConfigException.class, () -> SplitDataLoader.builder("x")
                .config(FlatConfig.of(Map.of("split_mode", "random"))).build()).getMessage().contains("split_mode"));
    }
}
