package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

class TrainerEndToEndTest {
    @TempDir Path tmp;

    static Map<String, Object> baseConfig(Path skillInit, int workers) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("env", "testbench");
        c.put("optimizer_model", "scripted");
        c.put("target_model", "bench");
        c.put("api_key", "sk-secret-value-123456789");
        c.put("num_epochs", 2);
        c.put("train_size", 0);
        c.put("batch_size", 4);
        c.put("accumulation", 1);
        c.put("seed", 42);
        c.put("minibatch_size", 2);
        c.put("merge_batch_size", 2);
        c.put("analyst_workers", workers);
        c.put("workers", workers);
        c.put("failure_only", false);
        c.put("edit_budget", 3);
        c.put("min_edit_budget", 1);
        c.put("lr_scheduler", "cosine");
        c.put("lr_control_mode", "fixed");
        c.put("skill_update_mode", "patch");
        c.put("use_slow_update", true);
        c.put("slow_update_samples", 4);
        c.put("use_meta_skill", true);
        c.put("use_gate", true);
        c.put("sel_env_num", 0);
        c.put("test_env_num", 0);
        c.put("eval_test", true);
        c.put("skill_init", skillInit.toString());
        return c;
    }

    static Path initialSkill(Path dir) throws Exception {
        Path f = dir.resolve("init_skill.md");
        Files.writeString(f, "# Skill\n\nAnswer the question.\n");
        return f;
    }

    static Trainer trainer(Map<String, Object> cfg, Path out, int workers, TrainingListener l) {
        UsageMeter meter = new UsageMeter();
        ChatModel opt = new ScriptedOptimizer(meter);
        ChatModel tgt = req -> { throw new AssertionError("the test bench never calls the target model"); };
        ModelRoles roles = new ModelRoles(opt, tgt, Optional.empty(), meter);
        return Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(cfg), "")).roles(roles).benchmark(new TestBench(12, 6, 6, workers, meter))
                .outRoot(out).listener(l).build();
    }

    @Test
    void writesUpstreamRunFolderWithAllFieldsAndImprovesOnTest() throws Exception {
        Path out = tmp.resolve("run");
        List<String> events = new ArrayList<>();
        TrainingListener l = new TrainingListener() {
            @Override public void stepFinished(TrainingEvent.StepFinished e) { events.add("step" + e.step() + ":" + e.action()); }
            @Override public void gateDecision(TrainingEvent.GateDecision e) { throw new IllegalStateException("listener bug"); }
            @Override public void runFinished(TrainingEvent.RunFinished e) { events.add("finished"); }
        };
        TrainingResult r = trainer(baseConfig(initialSkill(tmp), 2), out, 2, l).train();

        for (String f : List.of("config.json", "runtime_state.json", "history.json", "summary.json", "best_skill.md",
                "skills/skill_v0000.md", "skills/skill_v0006.md", "selection_eval_baseline/results.jsonl",
                "test_eval_baseline/summary.json", "test_eval/summary.json", "test_eval_final/summary.json",
                "steps/step_0001/rollout/results.jsonl", "steps/step_0001/patches/minibatch_fail_000.json",
                "steps/step_0001/merged_patch.json", "steps/step_0001/ranked_edits.json", "steps/step_0001/candidate_skill.md",
                "steps/step_0001/edit_apply_report.json", "steps/step_0001/step_record.json",
                "steps/step_0001/trajectory_digest.json", "steps/step_0001/selection_eval/results.jsonl",
                "slow_update/epoch_01/slow_result.json", "slow_update/epoch_02/slow_result.json",
                "slow_update/epoch_02/comparison_pairs.json", "slow_update/epoch_02/candidate_skill.md",
                "slow_update/epoch_02/rollout_prev/results.jsonl", "meta_skill/epoch_01/meta_skill_result.json",
                "meta_skill/epoch_02/meta_skill_result.json")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), "missing " + f);
        }
        assertFalse(Files.readString(out.resolve("config.json")).contains("sk-secret-value-123456789"));
        assertTrue(Files.readString(out.resolve("config.json")).contains("\"steps_per_epoch\": 3"));

        @SuppressWarnings("unchecked") List<Map<String, Object>> h = (List<Map<String, Object>>) Json.read(out.resolve("history.json"));
        assertEquals(6, h.size());
        Map<String, Object> first = h.get(0);
        assertEquals(List.of("step", "epoch", "step_in_epoch", "timing", "tokens", "rollout_hard", "rollout_soft", "rollout_n",
                "accumulation_batches", "n_patches", "n_failure_patches", "n_success_patches", "n_edits_merged", "n_edits_ranked",
                "edit_budget", "lr_control_mode", "support_counts", "candidate_hash", "candidate_skill_len", "edit_apply_summary",
                "selection_hard", "selection_soft", "gate_metric", "candidate_gate_score", "action", "current_score", "best_score",
                "best_step", "current_origin", "best_origin", "skill_len", "wall_time_s"), new ArrayList<>(first.keySet()));
        assertEquals(List.of("rollout_s", "reflect_s", "aggregate_s", "select_s", "update_s", "evaluate_s"),
                new ArrayList<>(((Map<?, ?>) first.get("timing")).keySet()));
        assertEquals("accept_new_best", first.get("action"));
        assertEquals(1043, ((Map<?, ?>) ((List<?>) first.get("accumulation_batches")).get(0)).get("batch_seed"));
        assertEquals(16, ((String) first.get("candidate_hash")).length());
        assertTrue(((Map<?, ?>) first.get("tokens")).containsKey("analyst"));
        assertEquals(Json.read(out.resolve("steps/step_0001/step_record.json")), first);

        Map<?, ?> summary = (Map<?, ?>) Json.read(out.resolve("summary.json"));
        assertEquals(List.of("version", "config", "baseline_selection_hard", "best_selection_hard", "final_selection_hard",
                "final_selection_soft", "best_step", "current_origin", "best_origin", "total_steps", "total_accepts", "total_rejects",
                "total_skips", "epoch_stats", "baseline_test_hard", "baseline_test_soft", "test_hard", "test_soft", "final_test_hard",
                "final_test_soft", "test_delta_hard", "final_test_delta_hard", "total_wall_time_s", "token_summary", "fault_usage"),
                new ArrayList<>(summary.keySet()));
        assertEquals(r.summary().get("test_hard"), summary.get("test_hard"));
        assertTrue((double) summary.get("test_hard") > (double) summary.get("baseline_test_hard"), "best skill beats the initial one on test");
        assertEquals(6, summary.get("total_steps"));
        assertEquals(2, ((List<?>) summary.get("epoch_stats")).size());

        Map<?, ?> state = (Map<?, ?>) Json.read(out.resolve("runtime_state.json"));
        assertEquals(6, state.get("last_completed_step"));
        assertEquals(out.resolve("best_skill.md").toString(), state.get("best_skill_path"));
        Map<?, ?> slow1 = (Map<?, ?>) Json.read(out.resolve("slow_update/epoch_01/slow_result.json"));
        assertEquals("inject_placeholder", slow1.get("action"));
        Map<?, ?> slow2 = (Map<?, ?>) Json.read(out.resolve("slow_update/epoch_02/slow_result.json"));
        assertEquals("force_accept", slow2.get("action"));
        assertTrue(Files.readString(out.resolve("skills/skill_v0006.md")).contains("- Re-read the task before answering."));
        Map<?, ?> test = (Map<?, ?>) Json.read(out.resolve("test_eval/summary.json"));
        assertEquals(List.of("even", "odd", "overall"), new ArrayList<>(test.keySet()));

        assertEquals("step1:accept_new_best", events.get(0));
        assertEquals("finished", events.get(events.size() - 1));
    }

    @Test
    void rerunningAFinishedRunOnlyRedoesTheFinalEvaluation() throws Exception {
        Path out = tmp.resolve("run");
        Map<String, Object> cfg = baseConfig(initialSkill(tmp), 1);
        trainer(cfg, out, 1, null).train();
        String history = Files.readString(out.resolve("history.json"));
        UsageMeter meter = new UsageMeter();
        ScriptedOptimizer opt = new ScriptedOptimizer(meter);
        Trainer again = Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(cfg), "")).roles(new ModelRoles(opt, opt, Optional.empty(), meter))
                .benchmark(new TestBench(12, 6, 6, 1, meter)).outRoot(out).build();
        again.train();
        assertEquals(history, Files.readString(out.resolve("history.json")));
        assertTrue(opt.calls.isEmpty(), "no optimizer call on a finished run: " + opt.calls);
    }
}
