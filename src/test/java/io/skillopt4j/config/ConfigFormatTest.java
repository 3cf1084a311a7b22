package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigFormatTest {
    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    @Test
    void structuredDetectionNeedsASectionHoldingAMapping() {
        assertFalse(ConfigFormat.isStructured(map("model", "x")));
        assertTrue(ConfigFormat.isStructured(map("env", map())));
        Map<String, Object> nullTrain = new HashMap<>();
        nullTrain.put("train", null);
        assertFalse(ConfigFormat.isStructured(nullTrain));
        assertFalse(ConfigFormat.isStructured(map("custom", map())));
        assertFalse(ConfigFormat.isStructured(map()));
        assertTrue(ConfigFormat.isStructured(map("batch_size", 1, "gradient", map("a", 1))));
    }

    @Test
    void overridesOnAStructuredConfig() {
        Map<String, Object> cfg = map("train", map("seed", 1), "model", map());
        ConfigFormat.applyOverrides(cfg, List.of("seed=5", "edit_budget=3", "env=alf", "codex_cli_bin=/c",
                "model_backend=x", "backend=claude", "model.a.b=1", "model.codex_bin=/z", "env.query=a=b", "future.x=1"));
        assertEquals(map("seed", 5), cfg.get("train"));
        assertEquals(map("learning_rate", 3), cfg.get("optimizer"));
        assertEquals(map("name", "alf", "query", "a=b"), cfg.get("env"));
        assertEquals(map("codex_exec_path", "/z", "backend", "x", "a.b", 1), cfg.get("model"));
        assertEquals("claude", cfg.get("backend"));
        assertEquals(map("x", 1), cfg.get("future"));
    }

    @Test
    void overridesOnAFlatConfigUseFlatNamesAndCanFlipTheFormat() {
        Map<String, Object> cfg = map("batch_size", 1);
        ConfigFormat.applyOverrides(cfg, List.of("train.batch_size=8", "optimizer.learning_rate=2", "env.name=s",
                "env.workers=4", "model.foo=1"));
        assertEquals(map("batch_size", 8, "edit_budget", 2, "env", "s", "workers", 4, "model", map("foo", 1)), cfg);
        assertTrue(ConfigFormat.isStructured(cfg));
    }

    @Test
    void overrideWithoutEqualsSignIsRejectedWithPythonRepr() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigFormat.applyOverrides(map(), List.of("train.seed")));
        assertEquals("Invalid override (expected key=value): 'train.seed'", e.getMessage());
    }

    @Test
    void overrideIntoANonMappingSectionIsAnError() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigFormat.applyOverrides(map("model", "x", "train", map()), List.of("model.target=y")));
        assertEquals("--cfg-options model.target=y: cannot set model.target because model is a string, not a mapping",
                e.getMessage());
    }

    @Test
    void flattenStructuredRenamesAndPassesEnvThroughLast() {
        Map<String, Object> cfg = map("top", 1, "model", map("backend", "b", "optimizer", "o", "unknown_key", 1),
                "optimizer", map("learning_rate", 4, "min_learning_rate", 2, "meta_learning_rate", 1),
                "train", map("seed", 1), "env", map("name", "a", "seed", 7, "env", "b", "skill_init", "s.md"));
        Map<String, Object> flat = ConfigFormat.flatten(cfg);
        assertEquals(map("top", 1, "model_backend", "b", "optimizer_model", "o", "seed", 7, "edit_budget", 4,
                "min_edit_budget", 2, "meta_edit_budget", 1, "env", "b", "skill_init", "s.md"), sortedLike(flat));
    }

    private static Map<String, Object> sortedLike(Map<String, Object> m) {
        return new HashMap<>(m);
    }

    @Test
    void flattenFlatInputIsACopyWithAliasesNormalised() {
        Map<String, Object> flat = ConfigFormat.flatten(map("codex_bin", "/x", "batch_size", 3));
        assertEquals(map("batch_size", 3, "codex_exec_path", "/x"), new HashMap<>(flat));
    }

    @Test
    void unknownTopLevelSectionSurvivesAsNestedMapping() {
        Map<String, Object> cfg = map("train", map());
        ConfigFormat.applyOverrides(cfg, List.of("future.backend.access_token=t"));
        assertEquals(map("future", map("backend.access_token", "t")), ConfigFormat.flatten(cfg));
    }
}
