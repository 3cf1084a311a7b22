package io.skillopt4j.config;

import java.util.List;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

class FlagsTest {
    @Test
    void trainHasTheUpstream132OptionsInArgparseOrder() {
        long upstream = Flags.flags(false).stream().filter(f -> !f.ours()).count();
        assertEquals(130, upstream, "130 legacy flags + --config + --cfg-options = 132");
        assertEquals("env", Flags.flags(false).get(0).flag());
        assertEquals("mode", Flags.flags(false).stream().filter(f -> !f.ours()).reduce((a, b) -> b).orElseThrow().flag());
    }

    @Test
    void evalHasTheUpstream75Options() {
        long upstream = Flags.flags(true).stream().filter(f -> !f.ours()).count();
        assertEquals(71, upstream, "71 legacy flags + --config --skill --split --cfg-options = 75");
        assertTrue(Flags.flags(true).stream().noneMatch(f -> f.flag().contains("qwen")));
        assertEquals(13, FlagValues.choices(Flags.byFlag("backend").orElseThrow(), true).size() - 1,
                "13 upstream choices plus openai_compatible");
    }

    @Test
    void flattenMapHas116UpstreamEntriesPerSection() {
        Map<String, String> m = Flags.upstreamFlattenMap();
        assertEquals(116, m.size());
        Map<String, Integer> perSection = new TreeMap<>();
        for (String path : m.keySet()) perSection.merge(path.substring(0, path.indexOf('.')), 1, Integer::sum);
        assertEquals(Map.of("model", 80, "train", 6, "gradient", 4, "optimizer", 14, "evaluation", 9, "env", 3), perSection);
        assertEquals("edit_budget", m.get("optimizer.learning_rate"));
        assertEquals("min_edit_budget", m.get("optimizer.min_learning_rate"));
        assertEquals("meta_edit_budget", m.get("optimizer.meta_learning_rate"));
        assertEquals("model_backend", m.get("model.backend"));
        assertEquals("optimizer_model", m.get("model.optimizer"));
        assertEquals("target_model", m.get("model.target"));
        assertEquals("env", m.get("env.name"));
        long renamed = m.entrySet().stream().filter(e -> !e.getKey().endsWith("." + e.getValue())).count();
        assertEquals(7, renamed);
    }

    @Test
    void legacyToStructuredMapHas109Entries() {
        long mappedFlags = Flags.flags(false).stream().filter(f -> !f.ours() && f.mapped()).count();
        assertEquals(109, mappedFlags);
        assertEquals("optimizer.learning_rate", Flags.structuredTarget("edit_budget"));
        assertEquals("env.max_steps", Flags.structuredTarget("max_steps"));
        assertEquals("env.anything", Flags.structuredTarget("anything"));
    }

    @Test
    void oursAreModelAdditionsAndBackgroundEval() {
        // + 14: backend settings that had no row (qwen_chat_use_max_completion_tokens x3, minimax_timeout_seconds, codex_working_directory,
        // claude_cli_bin, claude_permission_mode, claude_setting_sources, claude_allow_attachment_read, claude_chat_timeout, anthropic_*, az_path,
        // exec_empty_response_retries); + 4: the agent CLI rows of codex_exec and opencode_exec (codex_chat_timeout, opencode_exec_*, opencode_chat_timeout);
        // + 1: claude_code_exec_permission_mode; + 1: env.skill_delivery (docs/skills.md); + 4: rate_limit_rpm, rate_limit_tpm, hedge_quantile, hedge_max_extra;
        // + 5: the honest gate (gate_test, gate_confidence, eval_repeats, adaptive_repeats, max_repeats)
        assertEquals(4 + 2 + 15 + 1 + 9 + 2 + 19 + 1 + 4 + 2 + 1 + 1 + 14 + 4 + 1 + 1 + 4 + 5, Flags.ALL.stream().filter(FlagSpec::ours).count());
        assertTrue(Flags.ALL.stream().filter(FlagSpec::ours).allMatch(f -> f.section().equals("model") || f.section().equals("engine")
                || f.section().equals("budget") || List.of("background_eval", "pipeline_stages", "max_errored_fraction", "batch_api", "batch_poll_seconds",
                        "force_new", "extend_epochs", "skill_delivery",
                        "gate_test", "gate_confidence", "eval_repeats", "adaptive_repeats", "max_repeats").contains(f.key())
                || (f.section().equals("env") && f.flag() == null && !f.mapped())),
                "ours: model/engine/budget additions, background_eval, pipeline_stages, batch_api keys, the run-folder switches, and flag-less benchmark knobs under env.");
        assertEquals("engine", Flags.byKey("engine_name").orElseThrow().flag(), "--engine temporal");
        FlagSpec bg = Flags.byKey("background_eval").orElseThrow();
        assertEquals("train.background_eval", bg.path());
        assertEquals(true, bg.defaultValue());
        assertFalse(bg.eval(), "eval_only has no background rollouts");
    }
}
