package io.skillopt4j.train;

import io.skillopt4j.env.PyRandom;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

class ReflectTest {
    @TempDir Path tmp;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach void stop() { pool.shutdownNow(); }

    private List<RolloutResult> results(int fails, int succs) {
        List<RolloutResult> out = new ArrayList<>();
        for (int i = 0; i < fails + succs; i++) {
            boolean ok = i >= fails;
            String id = (ok ? "s" : "f") + i;
            out.add(new RolloutResult(id, ok ? 1 : 0, ok ? 1 : 0, ok ? Map.of("task_description", "task " + id) :
                    Map.of("task_description", "task " + id, "fail_reason", "wrong: " + id, "task_type", "qa")));
            AtomicFiles.writeJson(tmp.resolve("pred").resolve(id).resolve("conversation.json"),
                    List.of(Map.of("role", "user", "content", "q " + id), Map.of("type", "tool_call", "cmd", "ls", "obs", "a.txt"),
                            Map.of("step", 1, "action", "go", "env_feedback", "ok", "reasoning", "think"), Map.of("role", "system", "content", "gold")));
        }
        return out;
    }

    /** Replies with one edit per trajectory id seen, plus the number of trajectories. */
    private static String reply(io.skillopt4j.backend.ChatRequest r) {
        Matcher m = Pattern.compile("### Trajectory \\d+ \\(id=(\\w+)\\)").matcher(r.lastUserText());
        List<Object> edits = new ArrayList<>();
        while (m.find()) edits.add(Map.of("op", "append", "content", "- " + m.group(1)));
        return Json.pretty(Map.of("batch_size", edits.size(), "failure_summary", List.of(), "patch", Map.of("reasoning", "r", "edits", edits)));
    }

    private Reflect reflect(Stages.Recording m, TrainSettings s) {
        return new Reflect(s, new Optimizer(m), new Prompts(null), new RunWriter(new RunPaths(tmp)), pool);
    }

    private Reflect.Input input(List<RolloutResult> rs) {
        return new Reflect.Input(rs, "# Skill", tmp.resolve("pred"), tmp.resolve("patches"), 1043, "", "");
    }

    @Test
    void cutsShuffledFailuresAndSuccessesIntoMinibatchesInIndexOrder() throws Exception {
        Stages.Recording m = new Stages.Recording(ReflectTest::reply);
        List<Map<String, Object>> raws = reflect(m, Stages.settings("minibatch_size", 2, "edit_budget", 5)).run(input(results(5, 2)));
        assertEquals(4, raws.size());
        assertEquals(List.of("failure", "failure", "failure", "success"), raws.stream().map(r -> r.get("source_type")).toList());
        for (String f : List.of("minibatch_fail_000", "minibatch_fail_001", "minibatch_fail_002", "minibatch_succ_000")) {
            assertTrue(Files.isRegularFile(tmp.resolve("patches").resolve(f + ".json")), f);
        }
        List<String> order = new PyRandom(1043).shuffled(List.of("f0", "f1", "f2", "f3", "f4"));
        List<?> first = (List<?>) ((Map<?, ?>) raws.get(0).get("patch")).get("edits");
        assertEquals("- " + order.get(0), ((Map<?, ?>) first.get(0)).get("content"));
        assertEquals("- " + order.get(1), ((Map<?, ?>) first.get(1)).get("content"));
    }

    @Test
    void formatsTheAnalystMessageWithTrajectoriesAndBudget() {
        Stages.Recording m = new Stages.Recording(ReflectTest::reply);
        reflect(m, Stages.settings("minibatch_size", 8, "edit_budget", 3, "failure_only", true)).run(input(results(1, 3)));
        assertEquals(1, m.requests.size(), "failure_only drops successes");
        String u = m.requests.get(0).lastUserText();
        assertTrue(u.startsWith("## Current Skill\n# Skill\n\n## Edits Budget\nProduce at most L=3 edits.\n\n## Failed Trajectories (1 total)\n"), u);
        assertTrue(u.contains("### Trajectory 1 (id=f0)\nTask: task f0\nTask type: qa\nFailure reason: wrong: f0\nSteps: ?\n"), u);
        assertTrue(u.contains("[user] q f0\n[action] ls\n[obs] a.txt\n[step 1 think] think\n[step 1 action] go\n[step 1 obs] ok\n[verification] gold"), u);
        assertEquals("analyst", m.requests.get(0).stage());
        assertTrue(m.requests.get(0).systemText().contains("error analyst"));
    }

    @Test
    void truncatesItemsToTheAnalystBudgetAndSkipsTrajectorylessItems() throws Exception {
        Stages.Recording m = new Stages.Recording(ReflectTest::reply);
        List<RolloutResult> rs = results(4, 0);
        Files.delete(tmp.resolve("pred").resolve("f3").resolve("conversation.json"));
        List<Map<String, Object>> raws = reflect(m, Stages.settings("minibatch_size", 4, "edit_budget", 2)).run(input(rs));
        assertEquals(2, ((List<?>) ((Map<?, ?>) raws.get(0).get("patch")).get("edits")).size());
        assertFalse(m.requests.get(0).lastUserText().contains("id=f3"));
        assertEquals(3, raws.get(0).get("batch_size"), "batch_size as reported by the analyst");
    }

    @Test
    void reusesExistingMinibatchFilesAndRecordsUnusableReplies() throws Exception {
        Files.createDirectories(tmp.resolve("patches"));
        Files.writeString(tmp.resolve("patches/minibatch_fail_000.json"), Json.pretty(Map.of("source_type", "failure", "cached", true)));
        Stages.Recording m = new Stages.Recording(r -> "sorry, no JSON");
        Optimizer opt = new Optimizer(m);
        List<Map<String, Object>> raws = new Reflect(Stages.settings("minibatch_size", 2), opt, new Prompts(null),
                new RunWriter(new RunPaths(tmp)), pool).run(input(results(4, 0)));
        assertEquals(1, raws.size());
        assertEquals(true, raws.get(0).get("cached"));
        assertEquals(1, m.requests.size(), "only the second minibatch was analysed");
        assertFalse(Files.exists(tmp.resolve("patches/minibatch_fail_001.json")));
        assertEquals("unparseable_reply", opt.drainFallbacks().get(0).get("reason"));
    }

    @Test
    void skillAwareRepliesWithOnlyNotesBecomeLapseCarriers() {
        Stages.Recording m = new Stages.Recording(r -> "{\"batch_size\": 1, \"appendix_notes\": [\"Re-check units.\"]}");
        List<Map<String, Object>> raws = reflect(m, Stages.settings("use_skill_aware_reflection", true)).run(input(results(1, 0)));
        assertEquals(List.of("Re-check units."), raws.get(0).get("appendix_notes"));
        assertEquals("execution-lapse only", ((Map<?, ?>) raws.get(0).get("patch")).get("reasoning"));
        assertTrue(m.requests.get(0).systemText().contains("EXECUTION_LAPSE"));
    }
}
