package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class TrainerResumeTest {
    @TempDir Path tmp;

    /** History without the fields that measure time. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> timeless(Path run) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : (List<Object>) Json.read(run.resolve("history.json"))) {
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) o);
            m.remove("timing");
            m.remove("wall_time_s");
            out.add(m);
        }
        return out;
    }

    private static Map<String, Object> cfg(Path skill, int workers) {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, workers);
        c.put("num_epochs", 3);
        c.put("lr_scheduler", "linear");
        c.put("edit_budget", 2);
        return c;
    }

    @Test
    void stoppedAndResumedRunEndsWithTheSameHistoryAsAnUninterruptedOne() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path a = tmp.resolve("a"), b = tmp.resolve("b");
        TrainerEndToEndTest.trainer(cfg(skill, 2), a, 2, null).train();

        TrainingHandle handle = StopAfterStep.train(2, stop -> TrainerEndToEndTest.trainer(cfg(skill, 2), b, 2, stop));
        TrainingResult stopped = handle.await();
        assertTrue(stopped.stopped());
        assertEquals(2, stopped.summary().get("last_completed_step"));
        assertEquals(2, ((List<?>) Json.read(b.resolve("history.json"))).size());
        assertFalse(Files.exists(b.resolve("summary.json")));
        assertFalse(Files.exists(new io.skillopt4j.run.RunPaths(b).step(3)), "step 3's rollout, started ahead, was dropped with the stop");
        assertEquals(2, handle.progress().step());

        TrainingResult resumed = TrainerEndToEndTest.trainer(cfg(skill, 2), b, 2, null).train();
        assertFalse(resumed.stopped());
        assertEquals(timeless(a), timeless(b));
        assertEquals(Files.readString(a.resolve("best_skill.md")), Files.readString(b.resolve("best_skill.md")));
        for (String k : List.of("test_hard", "baseline_test_hard", "final_test_hard", "best_step", "best_origin", "baseline_selection_hard")) {
            assertEquals(((Map<?, ?>) Json.read(a.resolve("summary.json"))).get(k), resumed.summary().get(k), k);
        }
    }

    @Test
    void interruptedStepReusesFinishedRolloutsAndAnalyses() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path run = tmp.resolve("run");
        Map<String, Object> c = cfg(skill, 1);
        c.put("num_epochs", 1);
        TrainerEndToEndTest.trainer(c, run, 1, null).train();
        List<Map<String, Object>> before = timeless(run);
        // simulate a crash inside step 3: its record and everything after it never got written
        Files.writeString(run.resolve("history.json"), Json.pretty(((List<?>) Json.read(run.resolve("history.json"))).subList(0, 2)));
        Map<String, Object> state = new LinkedHashMap<>();
        @SuppressWarnings("unchecked") Map<String, Object> old = (Map<String, Object>) Json.read(run.resolve("steps/step_0002/step_record.json"));
        Map<String, Object> rs = new LinkedHashMap<>();
        rs.put("last_completed_step", 2);
        rs.put("current_skill_path", run.resolve("skills/skill_v0002.md").toString());
        rs.put("current_score", old.get("current_score"));
        rs.put("current_origin", old.get("current_origin"));
        rs.put("best_skill_path", run.resolve("best_skill.md").toString());
        rs.put("best_score", old.get("best_score"));
        rs.put("best_step", old.get("best_step"));
        rs.put("best_origin", old.get("best_origin"));
        rs.put("scheduler_step", 2);
        rs.put("baseline_selection_hard", ((Map<?, ?>) Json.read(run.resolve("runtime_state.json"))).get("baseline_selection_hard"));
        rs.put("baseline_selection_soft", ((Map<?, ?>) Json.read(run.resolve("runtime_state.json"))).get("baseline_selection_soft"));
        Files.writeString(run.resolve("runtime_state.json"), Json.pretty(rs));
        Files.copy(run.resolve("skills/skill_v0002.md"), run.resolve("best_skill.md"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.delete(run.resolve("steps/step_0003/step_record.json"));
        Files.delete(run.resolve("summary.json"));
        try (Stream<Path> s = Files.list(run.resolve("slow_update"))) { s.forEach(TrainerResumeTest::deleteTree); }

        io.skillopt4j.backend.UsageMeter meter = new io.skillopt4j.backend.UsageMeter();
        ScriptedOptimizer opt = new ScriptedOptimizer(meter);
        TestBench bench = new TestBench(12, 6, 6, 1, meter);
        Trainer t = Trainer.builder().config(io.skillopt4j.config.RunConfig.from(io.skillopt4j.config.FlatConfig.of(c), ""))
                .roles(new io.skillopt4j.backend.ModelRoles(opt, opt, java.util.Optional.empty(), meter)).benchmark(bench).outRoot(run).build();
        t.train();
        List<Map<String, Object>> after = timeless(run);
        assertEquals(Map.of("merge", Map.of("calls", 1, "prompt_tokens", 233, "completion_tokens", 126),
                "ranking", Map.of("calls", 1, "prompt_tokens", 125, "completion_tokens", 15)), after.get(2).get("tokens"),
                "step 3 made only the merge and ranking calls again");
        before.forEach(m -> m.remove("tokens"));
        after.forEach(m -> m.remove("tokens"));
        assertEquals(before, after);
        assertNull(opt.calls.get("analyst"), "analyst minibatches of step 3 were reused");
        assertTrue(Files.isRegularFile(run.resolve("summary.json")));
    }

    static void deleteTree(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
