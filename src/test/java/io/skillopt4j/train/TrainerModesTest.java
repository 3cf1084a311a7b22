package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

class TrainerModesTest {
    @TempDir Path tmp;

    private Map<String, Object> cfg(Object... kv) throws Exception {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(TrainerEndToEndTest.initialSkill(tmp), 2);
        c.put("num_epochs", 1);
        c.put("use_slow_update", false);
        c.put("use_meta_skill", false);
        for (int i = 0; i < kv.length; i += 2) c.put((String) kv[i], kv[i + 1]);
        return c;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> history(Path run) { return (List<Map<String, Object>>) Json.read(run.resolve("history.json")); }

    @Test
    void rewriteFromSuggestionsRewritesTheWholeSkill() throws Exception {
        Path run = tmp.resolve("rw");
        TrainerEndToEndTest.trainer(cfg("skill_update_mode", "suggestions"), run, 2, null).train();
        Map<String, Object> first = history(run).get(0);
        assertEquals(List.of(), first.get("rewrite_change_summary"), "a non-list change_summary becomes [] as upstream");
        assertFalse(first.containsKey("edit_apply_summary"));
        assertTrue(Files.isRegularFile(run.resolve("steps/step_0001/rewrite_result.json")));
        assertEquals("rewrite_from_suggestions", ((Map<?, ?>) Json.read(run.resolve("config.json"))).get("skill_update_mode"));
        assertTrue(Files.readString(run.resolve("best_skill.md")).contains("RULE:"));
    }

    @Test
    void fullRewriteSkipsSelectionAndRecordsNoBudget() throws Exception {
        Path run = tmp.resolve("full");
        TrainerEndToEndTest.trainer(cfg("skill_update_mode", "full_rewrite", "lr_control_mode", "autonomous"), run, 2, null).train();
        Map<String, Object> first = history(run).get(0);
        assertTrue(first.containsKey("edit_budget"));
        assertNull(first.get("edit_budget"));
        assertEquals("none", first.get("lr_control_mode"));
        assertTrue(Files.isRegularFile(run.resolve("steps/step_0001/full_rewrite_result.json")));
        assertEquals(Json.read(run.resolve("steps/step_0001/merged_patch.json")), Json.read(run.resolve("steps/step_0001/ranked_edits.json")));
        assertEquals("none", ((Map<?, ?>) Json.read(run.resolve("config.json"))).get("lr_control_mode"));
    }

    @Test
    void autonomousLearningRateWritesDecisionsAndHistoryLines() throws Exception {
        Path run = tmp.resolve("auto");
        TrainerEndToEndTest.trainer(cfg("lr_control_mode", "auto"), run, 2, null).train();
        Map<String, Object> first = history(run).get(0);
        assertEquals(2, first.get("edit_budget"));
        assertEquals("autonomous", first.get("lr_control_mode"));
        assertEquals(2, ((Map<?, ?>) first.get("lr_decision")).get("learning_rate"));
        List<String> lines = Files.readAllLines(run.resolve("lr_history.jsonl"));
        long evaluated = history(run).stream().filter(h -> h.containsKey("lr_decision")).count();
        assertEquals(evaluated, lines.size());
        assertTrue(lines.get(0).startsWith("{\"step\": 1, \"epoch\": 1, \"learning_rate\": 2,"), lines.get(0));
    }

    @Test
    void withoutTheGateEveryCandidateIsForceAcceptedButStillScored() throws Exception {
        Path run = tmp.resolve("nogate");
        TrainerEndToEndTest.trainer(cfg("use_gate", false), run, 2, null).train();
        Map<String, Object> first = history(run).get(0);
        assertEquals("force_accept", first.get("action"));
        assertTrue(first.containsKey("selection_hard"));
    }

    @Test
    void accumulationRollsOutSeveralBatchesPerStep() throws Exception {
        Path run = tmp.resolve("acc");
        TrainerEndToEndTest.trainer(cfg("accumulation", 2, "batch_size", 3), run, 2, null).train();
        Map<String, Object> first = history(run).get(0);
        assertEquals(2, ((List<?>) first.get("accumulation_batches")).size());
        assertEquals(6, first.get("rollout_n"));
        assertTrue(Files.isRegularFile(run.resolve("steps/step_0001/batch_1/rollout/results.jsonl")));
        assertTrue(Files.isDirectory(run.resolve("steps/step_0001/batch_0/patches")));
        assertEquals(2, ((Map<?, ?>) Json.read(run.resolve("config.json"))).get("steps_per_epoch"));
        for (Map<String, Object> rec : history(run)) { // batch_idx counts inside the accumulation group, as upstream
            List<?> batches = (List<?>) rec.get("accumulation_batches");
            for (int a = 0; a < batches.size(); a++) assertEquals(a, ((Map<?, ?>) batches.get(a)).get("batch_idx"), "step " + rec.get("step"));
        }
    }

    @Test
    void skillAwareReflectionFlushesExecutionNotesIntoTheAppendix() throws Exception {
        Path run = tmp.resolve("aware");
        TrainerEndToEndTest.trainer(cfg("use_skill_aware_reflection", true), run, 2, null).train();
        Map<String, Object> first = history(run).get(0);
        assertEquals(1, first.get("n_appendix_notes_total"));
        assertTrue(Files.isRegularFile(run.resolve("steps/step_0001/appendix_notes.json")));
        String skill = Files.readString(run.resolve("skills/skill_v0001.md"));
        assertTrue(skill.contains(SkillDocument.APPENDIX_START) && skill.contains("- Double-check the keyword."));
        assertFalse(Files.readString(run.resolve("skills/skill_v0000.md")).contains(SkillDocument.APPENDIX_START));
    }

    @Test
    void anOptimizerThatNeverAnswersInJsonNeverCrashesTheRun() throws Exception {
        Path run = tmp.resolve("garbage");
        UsageMeter meter = new UsageMeter();
        ScriptedOptimizer opt = new ScriptedOptimizer(meter);
        opt.garbage = true;
        Map<String, Object> c = cfg("use_slow_update", true, "use_meta_skill", true, "num_epochs", 2);
        TrainingResult r = Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(c), "")).roles(new ModelRoles(opt, opt, Optional.empty(), meter))
                .benchmark(new TestBench(12, 6, 6, 2, meter)).outRoot(run).build().train();
        assertEquals(6L, r.summary().get("total_skips"));
        List<?> fb = (List<?>) Json.read(run.resolve("steps/step_0001/fallbacks.json"));
        assertEquals("unparseable_reply", ((Map<?, ?>) fb.get(0)).get("reason"));
        assertEquals("no_content", ((Map<?, ?>) Json.read(run.resolve("slow_update/epoch_02/slow_result.json"))).get("action"));
        assertEquals("no_content", ((Map<?, ?>) Json.read(run.resolve("meta_skill/epoch_02/meta_skill_result.json"))).get("action"));
    }

    @Test
    void gatedSlowUpdateWithChangedPairsTopsUpAndFeedsTheMetaSkillForward() throws Exception {
        Path run = tmp.resolve("slow");
        UsageMeter meter = new UsageMeter();
        ScriptedOptimizer opt = new ScriptedOptimizer(meter);
        Map<String, Object> c = cfg("use_slow_update", true, "use_meta_skill", true, "num_epochs", 3, "edit_budget", 1,
                "slow_update_gate_with_selection", true, "longitudinal_pair_policy", "changed", "slow_update_samples", 3);
        Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(c), "")).roles(new ModelRoles(opt, opt, Optional.empty(), meter))
                .benchmark(new TestBench(12, 6, 6, 2, meter)).outRoot(run).build().train();
        Map<?, ?> slow = (Map<?, ?>) Json.read(run.resolve("slow_update/epoch_02/slow_result.json"));
        assertTrue(List.of("accept", "accept_new_best", "reject").contains(slow.get("action")), String.valueOf(slow));
        assertTrue(slow.containsKey("selection_hard"));
        assertTrue(Files.isRegularFile(run.resolve("slow_update/epoch_02/comparison_pairs_all.json")));
        for (Object p : (List<?>) Json.read(run.resolve("slow_update/epoch_02/comparison_pairs.json"))) {
            assertTrue(List.of("improved", "regressed").contains(((Map<?, ?>) p).get("category")));
        }
        assertTrue(Files.isDirectory(run.resolve("slow_update/epoch_02/rollout_prev/topup")), "changed pairs were topped up");
        assertEquals("write_meta_skill", ((Map<?, ?>) Json.read(run.resolve("meta_skill/epoch_02/meta_skill_result.json"))).get("action"));
        assertTrue(opt.userMessages.stream().anyMatch(u -> u.contains("## Optimizer Meta Skill") && u.contains("Appending one rule per keyword")),
                "epoch 3 analysts see the meta skill written at the end of epoch 2");
    }

    @Test
    void withoutTestEvaluationTheTestFieldsAreNullAndNoTestFolderIsWritten() throws Exception {
        Path run = tmp.resolve("notest");
        TrainingResult r = TrainerEndToEndTest.trainer(cfg("eval_test", false), run, 2, null).train();
        for (String k : List.of("test_hard", "test_soft", "baseline_test_hard", "final_test_hard", "test_delta_hard", "final_selection_hard")) {
            assertTrue(r.summary().containsKey(k) && r.summary().get(k) == null, k);
        }
        assertFalse(Files.exists(run.resolve("test_eval")));
        assertEquals(3, ((Map<?, ?>) Json.read(run.resolve("runtime_state.json"))).get("last_completed_step"));
    }

    @Test
    void badKnobsFailBeforeAnyModelCall() throws Exception {
        Path run = tmp.resolve("bad");
        ConfigException e = assertThrows(ConfigException.class,
                () -> TrainerEndToEndTest.trainer(cfg("merge_batch_size", 1), run, 1, null).train());
        assertEquals("gradient.merge_batch_size must be an integer >= 2, got 1", e.getMessage());
        assertThrows(ConfigException.class, () -> TrainerEndToEndTest.trainer(cfg("lr_control_mode", "sometimes"), run, 1, null).train());
        assertThrows(ConfigException.class, () -> TrainerEndToEndTest.trainer(cfg("longitudinal_pair_policy", "odd"), run, 1, null).train());
        assertEquals("train_size must match the train split (12 items), got 10",
                assertThrows(ConfigException.class, () -> TrainerEndToEndTest.trainer(cfg("train_size", 10), run, 1, null).train()).getMessage());
    }
}
