package io.skillopt4j.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FluentConfigTest {
    static final String F = ConfigResolverTest.SEARCHQA;
    @TempDir Path dir;

    @Test
    void emptyAndFromMapUseDefaultsForAbsentKeys() {
        ResolvedConfig empty = Cfg.empty().clock(ConfigResolverTest.CLOCK).workingDirectory(dir).resolve();
        assertEquals(40, empty.run().train().batchSize());
        assertEquals("constant", empty.run().optimizer().lrScheduler(), "trainer default when absent");
        assertEquals(dir.resolve("outputs/skillopt_unknown_unknown_20260304_050607").toString(), empty.flat().get("out_root"));
        ResolvedConfig m = Cfg.fromMap(Map.of("train", Map.of("batch_size", 3), "env", Map.of("name", "s")))
                .backend("claude").resolve();
        assertEquals(3, m.run().train().batchSize());
        assertEquals("s", m.run().env().name());
        assertEquals("claude_chat", m.run().model().targetBackend());
    }

    @Test
    void describeListsKeyValueSourceAndDefault() {
        var t = Cfg.load(F).set("train.seed", 7).backend("claude").flag("azure_api_key", "zz-cfg-test-secret-1")
                .clock(ConfigResolverTest.CLOCK).describe();
        assertEquals(List.of("key", "value", "source", "default"), t.columnNames());
        Map<String, Integer> row = new java.util.HashMap<>();
        for (int i = 0; i < t.rowCount(); i++) row.put(t.stringColumn("key").get(i), i);
        assertEquals("--cfg-options", t.stringColumn("source").get(row.get("seed")));
        assertEquals("searchqa/default.yaml", t.stringColumn("source").get(row.get("train_size")));
        assertEquals("_base_/default.yaml", t.stringColumn("source").get(row.get("num_epochs")));
        assertEquals("--backend", t.stringColumn("source").get(row.get("model_backend")));
        assertEquals("zz-c...et-1", t.stringColumn("value").get(row.get("azure_api_key")));
        assertTrue(t.booleanColumn("default").get(row.get("num_epochs")));
        assertTrue(!t.booleanColumn("default").get(row.get("train_size")));
    }

    @Test
    void docsExampleWorksAsDocumented() {
        ResolvedConfig cfg = Cfg.load("configs/_base_/default.yaml")
                .set("env.name", "searchqa").set("train.batch_size", 8)
                .backend("claude_code_exec").flag("target_model", "my-model").resolve();
        assertEquals(8, cfg.run().train().batchSize());
        assertEquals("claude_code_exec", cfg.flat().string("target_backend", ""));
        assertEquals("my-model", cfg.run().model().targetModel());
        assertEquals(List.of(), cfg.warnings());
        assertTrue(Cfg.load("configs/demo/default.yaml").describe().rowCount() > 40);
    }
}
