package io.skillopt4j.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every shipped upstream config loads unchanged and flattens to the intended values (env section kept). */
class UpstreamConfigsTest {
    static final Path ROOT = Path.of("src/test/resources/upstream-configs");
    static final Clock CLOCK = ConfigResolverTest.CLOCK;

    /** The base's flat values every config inherits (model keys checked separately). */
    static final Map<String, Object> BASE = Map.ofEntries(Map.entry("num_epochs", 4), Map.entry("train_size", 0),
            Map.entry("batch_size", 40), Map.entry("accumulation", 1), Map.entry("seed", 42),
            Map.entry("minibatch_size", 8), Map.entry("merge_batch_size", 8), Map.entry("analyst_workers", 16),
            Map.entry("failure_only", false), Map.entry("edit_budget", 4), Map.entry("min_edit_budget", 2),
            Map.entry("lr_scheduler", "cosine"), Map.entry("lr_control_mode", "fixed"),
            Map.entry("skill_update_mode", "patch"), Map.entry("use_slow_update", true),
            Map.entry("slow_update_samples", 20), Map.entry("slow_update_gate_with_selection", false),
            Map.entry("longitudinal_pair_policy", "mixed"), Map.entry("use_meta_skill", true),
            Map.entry("use_skill_aware_reflection", false), Map.entry("skill_aware_appendix_source", "both"),
            Map.entry("skill_aware_consolidate_threshold", 0), Map.entry("use_gate", true),
            Map.entry("sel_env_num", 0), Map.entry("test_env_num", 0), Map.entry("eval_test", true),
            Map.entry("model_backend", "azure_openai"), Map.entry("optimizer_model", "gpt-5.5"),
            Map.entry("target_model", "gpt-5.5"), Map.entry("optimizer_backend", "openai_chat"),
            Map.entry("target_backend", "openai_chat"), Map.entry("reasoning_effort", "medium"),
            Map.entry("rewrite_max_completion_tokens", 64000), Map.entry("codex_trace_to_optimizer", true),
            Map.entry("minimax_temperature", "0.7"), Map.entry("minimax_max_tokens", "8000"),
            Map.entry("minimax_enable_thinking", "false"), Map.entry("azure_openai_api_version", "2024-12-01-preview"),
            Map.entry("claude_code_exec_max_thinking_tokens", 16384), Map.entry("split_seed", 42),
            Map.entry("data_path", ""), Map.entry("split_output_dir", ""));

    static Map<String, Object> expected(String name) {
        Map<String, Object> m = new HashMap<>(BASE);
        String skill = "skillopt/envs/" + name + "/skills/initial.md";
        switch (name) {
            case "_base_" -> m.putAll(Map.of("env", "", "skill_init", "", "split_mode", "ratio", "split_dir", "",
                    "exec_timeout", 120));
            case "alfworld" -> m.putAll(Map.of("env", "alfworld", "skill_init", skill, "split_mode", "split_dir",
                    "split_dir", "data/alfworld_path_split", "max_steps", 50, "max_completion_tokens", 16384,
                    "workers", 8, "max_api_workers", 8, "limit", 0, "exec_timeout", 120));
            case "docvqa" -> m.putAll(Map.of("env", "docvqa", "skill_init", skill, "split_mode", "split_dir",
                    "split_dir", "data/docvqa/splits", "max_turns", 1, "max_completion_tokens", 16384, "workers", 16,
                    "image_detail", "auto", "limit", 0));
            case "livemathematicianbench" -> {
                m.putAll(Map.of("env", "livemathematicianbench", "skill_init", skill, "split_mode", "split_dir",
                        "split_dir", "data/livemathematicianbench_split", "exec_timeout", 300, "max_turns", 1,
                        "max_completion_tokens", 16384, "workers", 64, "limit", 0));
                m.putAll(Map.of("shuffle_choices", true, "use_theorem", false, "use_sketch", false));
            }
            case "officeqa" -> {
                m.putAll(Map.of("env", "officeqa", "skill_init", skill, "split_mode", "split_dir",
                        "split_dir", "data/officeqa_split", "data_dirs", List.of("data/officeqa_docs_official"),
                        "workers", 4, "max_tool_turns", 24, "max_completion_tokens", 16384, "search_mode", "offline",
                        "max_queries_per_turn", 4));
                m.putAll(Map.of("search_api_url", "http://apisix.westus2.cloudapp.azure.com/search_tool/search",
                        "search_auth_env", "OFFICEQA_CUSTOM_SEARCH_AUTH", "search_provider", "duckduckgo",
                        "search_max_num_results", 4, "search_timeout_seconds", 20, "limit", 0));
            }
            case "searchqa" -> m.putAll(Map.of("train_size", 400, "env", "searchqa", "skill_init", skill,
                    "split_mode", "split_dir", "split_dir", "data/searchqa_split", "max_turns", 1,
                    "max_completion_tokens", 16384, "workers", 24, "limit", 0));
            case "spreadsheetbench" -> {
                m.putAll(Map.of("train_size", 80, "env", "spreadsheetbench", "skill_init", skill, "split_mode",
                        "split_dir", "split_dir", "data/spreadsheetbench_split", "exec_timeout", 600,
                        "data_root", "data/spreadsheetbench_verified_400", "mode", "multi", "max_turns", 30));
                m.putAll(Map.of("max_completion_tokens", 16384, "workers", 24));
            }
            case "features" -> m.putAll(Map.of("gate_metric", "soft", "gate_mixed_weight", 0.5, "env", "",
                    "split_mode", "ratio"));
            default -> throw new IllegalArgumentException(name);
        }
        return m;
    }

    static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.walk(ROOT)) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @Test
    void everyShippedConfigResolvesToTheIntendedValues() throws IOException {
        List<Path> files = files();
        assertEquals(8, files.size());
        for (Path f : files) {
            String name = f.getParent().getFileName().toString();
            ResolvedConfig r = Cfg.load(f).clock(CLOCK).resolve();
            Map<String, Object> flat = r.flat().asMap();
            expected(name).forEach((k, v) -> assertEquals(v, flat.get(k), f + ": " + k));
            assertEquals(List.of(), r.warnings(), f.toString());
            for (String dropped : List.of("optimizer_minimax_base_url", "target_minimax_api_key")) {
                assertFalse(flat.containsKey(dropped), f + ": " + dropped);
            }
            for (String section : Flags.SECTIONS) assertFalse(flat.containsKey(section) && !section.equals("env"), section);
            assertTrue(Path.of((String) flat.get("out_root")).isAbsolute());
            assertEquals(name.equals("_base_") || name.equals("features") ? "" : name, r.run().env().name());
        }
    }

    @Test
    void theProjectBaseIsACopyOfUpstreams() throws IOException {
        assertEquals(Files.readString(ROOT.resolve("_base_/default.yaml")), Files.readString(Path.of("configs/_base_/default.yaml")));
    }

    @Test
    void typedViewOfSearchqa() {
        RunConfig run = Cfg.load(ROOT.resolve("searchqa/default.yaml")).clock(CLOCK).resolve().run();
        assertEquals(new RunConfig.Train(4, 400, 40, 1, 42, true), run.train());
        assertEquals(new RunConfig.Gradient(8, 8, 16, false), run.gradient());
        assertEquals("cosine", run.optimizer().lrScheduler());
        assertEquals(4, run.optimizer().editBudget());
        assertEquals("hard", run.evaluation().gateMetric());
        assertEquals(0.5, run.evaluation().gateMixedWeight());
        assertEquals("split_dir", run.env().splitMode());
        assertEquals(24, run.env().workers().orElseThrow());
        assertEquals("off", run.model().responseCache());
        assertEquals("cli", run.model().claudeChatTransport());
        assertEquals("openai_chat", run.model().targetBackend());
    }
}
