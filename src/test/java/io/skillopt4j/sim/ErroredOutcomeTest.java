package io.skillopt4j.sim;

import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;
import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.train.StopAfterStep;
import io.skillopt4j.train.TrainingHandle;
import io.skillopt4j.train.TrainingResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Issue 18, "errored is a first-class outcome": a provider that refuses connections, on the real trainer, the real
 * openai_compatible backend and the simulator. Failed calls are never stored as finished items or recorded as an
 * ordinary step; the run stops at the step, and once the provider is back it resumes to the fault-free result.
 */
class ErroredOutcomeTest {
    @TempDir Path tmp;

    /** Five steps of four items, one epoch, small evaluations, no backoff waits (the provider is down, not slow). */
    private static final String[] SMALL = {"env.limit=20", "train.batch_size=4", "train.num_epochs=1", "evaluation.sel_env_num=8",
            "evaluation.test_env_num=8", "model.retry_backoff_base_ms=0", "model.retry_backoff_cap_ms=0"};

    private static SkillOpt setup(Path out) { return SimEndToEnd.demoConfig(out, SMALL); }

    /** A loopback URL nobody listens on: connections are refused. */
    private static String deadUrl() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return "http://127.0.0.1:" + s.getLocalPort() + "/v1";
        }
    }

    /** The simulator's environment with the optimizer and/or the target pointed at a refusing port. */
    private static SkillOpt down(SkillOpt s, SimServer sim, boolean optimizer, boolean target) throws IOException {
        String dead = deadUrl();
        // through the environment, not the config: the run folder's configuration stays the same across sessions
        Map<String, String> env = new java.util.HashMap<>(sim.environment());
        if (optimizer) env.put("OPTIMIZER_OPENAI_COMPATIBLE_BASE_URL", dead);
        if (target) env.put("TARGET_OPENAI_COMPATIBLE_BASE_URL", dead);
        return s.simulator(sim).environment(env);
    }

    @Test void aFreshRunAgainstARefusingProviderStoresNoFinishedRowsStopsWithOneLineAndResumesToTheFaultFreeRun() throws Exception {
        Path clean = tmp.resolve("clean"), run = tmp.resolve("run");
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            SimEndToEnd.train(sim, setup(clean), clean);

            TrainingResult r = down(setup(run), sim, true, true).outRoot(run).trainer().train();
            assertTrue(r.stopped());
            assertEquals("errored", r.summary().get("stop_reason"));
            assertEquals(0, r.summary().get("last_completed_step"));
            String line = String.valueOf(r.summary().get("message"));
            assertFalse(line.contains("\n"), line);
            // the provider refuses at once: once an item errored no further item starts (the step stops anyway), unless
            // the items had already been started ahead in free slots (background evaluation waves)
            int n = RolloutRunner.readResults(run.resolve("selection_eval_baseline").resolve(RolloutRunner.ERRORED_FILE)).size();
            assertTrue(n >= 1 && n <= 8, "errored " + n);
            assertTrue(line.startsWith("errored: " + n + " of 8 rollout items failed" + (n < 8 ? ", " + (8 - n) + " not started" : " (first")), line);
            assertFalse(Files.exists(run.resolve("history.json")));
            assertFalse(Files.exists(run.resolve("runtime_state.json")), "the baseline was not recorded");
            Path baseline = run.resolve("selection_eval_baseline");
            assertEquals(Map.of(), RolloutRunner.readResults(baseline.resolve("results.jsonl")), "no failed row stored as finished");
            assertFalse(Files.exists(baseline.resolve("results.jsonl")) && !Files.readString(baseline.resolve("results.jsonl")).isBlank());
            Map<String, RolloutResult> errored = RolloutRunner.readResults(baseline.resolve(RolloutRunner.ERRORED_FILE));
            assertEquals(n, errored.size());
            assertTrue(errored.values().stream().allMatch(x -> x.isErrored() && x.failReason().startsWith("errored: ")), errored.toString());
            Map<?, ?> faults = (Map<?, ?>) r.summary().get("fault_usage");
            assertEquals((long) n, ((Map<?, ?>) faults.get("rollout")).get("errored"), faults.toString());
            // frames and the report of the stopped run count them per stage
            io.skillopt4j.frames.RunFrames frames = io.skillopt4j.frames.RunFrames.load(run);
            io.skillopt4j.frames.Frame ff = frames.faults();
            assertEquals(List.of("rollout", "_total"), ff.stringColumn("stage").asList());
            assertEquals(n, ff.longColumn("errored").getLong(0));
            assertEquals(String.valueOf(n), frames.summary().stringColumn("value").get(frames.summary().stringColumn("key").indexOf("errored")));
            assertEquals("stopped (errored: resumable)", frames.summary().stringColumn("value").get(frames.summary().stringColumn("key").indexOf("status")));
            assertTrue(io.skillopt4j.frames.Report.of(List.of(frames)).html().contains("Faults by stage"));

            TrainingResult resumed = SimEndToEnd.train(sim, setup(run), run);
            assertFalse(resumed.stopped());
            assertSameRun(clean, run);
            Map<?, ?> total = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) Json.read(run.resolve("summary.json"))).get("fault_usage")).get("_total");
            assertEquals(n, ((Number) total.get("errored")).longValue(), "the stopped session's errored items are still counted");
        }
    }

    @Test void aRunStoppedAfterStep3WithTheProviderDownForStep4RecordsNothingAndResumesToTheFaultFreeRun() throws Exception {
        Path clean = tmp.resolve("clean"), run = tmp.resolve("run");
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            SimEndToEnd.train(sim, setup(clean), clean);

            TrainingHandle handle = StopAfterStep.train(3, stop -> setup(run).simulator(sim).outRoot(run).listener(stop).trainer());
            assertEquals(3, handle.await().summary().get("last_completed_step"));
            String history = Files.readString(run.resolve("history.json"));
            String state = Files.readString(run.resolve("runtime_state.json"));
            Map<String, String> before = rawFiles(run);

            // the optimizer is down: step 4's rollout is stored, every analyst call fails
            TrainingResult analystsDown = down(setup(run), sim, true, false).outRoot(run).trainer().train();
            assertEquals("errored", analystsDown.summary().get("stop_reason"));
            assertEquals("analyst", analystsDown.summary().get("errored_stage"));
            assertEquals(3, analystsDown.summary().get("last_completed_step"));
            assertUnchanged(run, history, state);
            assertFalse(Files.exists(run.resolve("steps/step_0004/step_record.json")), "step 4 is not recorded as skip_no_patches");

            // everything is down: the stored rollout is reused and the analysts fail again; nothing changes
            TrainingResult allDown = down(setup(run), sim, true, true).outRoot(run).trainer().train();
            assertEquals("errored", allDown.summary().get("stop_reason"));
            assertUnchanged(run, history, state);
            // a session that names the dead endpoint in its config (as --cfg-options model.openai_compatible_base_url=…)
            TrainingResult configDown = setup(run).simulator(sim).set("model.openai_compatible_base_url", deadUrl()).outRoot(run).trainer().train();
            assertEquals("errored", configDown.summary().get("stop_reason"));
            assertUnchanged(run, history, state);
            // every file the folder held before the outage is as it was (config.json too, though the sessions named
            // another endpoint); only the outage's own records grow: faults, the transport log, errored rows, and the
            // cost ledger and token journal (step 4's rollout did reach the target in the first session: that money was spent)
            Map<String, String> after = rawFiles(run);
            for (Map.Entry<String, String> f : before.entrySet()) {
                if (!List.of("faults.jsonl", "cost_ledger.jsonl", "token_usage.jsonl").contains(f.getKey())) assertEquals(f.getValue(), after.get(f.getKey()), f.getKey());
            }

            TrainingResult resumed = SimEndToEnd.train(sim, setup(run), run);
            assertFalse(resumed.stopped());
            assertSameRun(clean, run);
        }
    }

    @Test void aSlowUpdateWhoseOptimizerCallErrorsIsNotRecordedAsNoContentAndResumesToTheFaultFreeRun() throws Exception {
        Path clean = tmp.resolve("clean"), run = tmp.resolve("run");
        String[] twoEpochs = concat(SMALL, "train.num_epochs=2");
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            SimEndToEnd.train(sim, SimEndToEnd.demoConfig(clean, twoEpochs), clean);

            TrainingHandle handle = StopAfterStep.train(10,
                    stop -> SimEndToEnd.demoConfig(run, twoEpochs).simulator(sim).outRoot(run).listener(stop).trainer());
            assertEquals(10, handle.await().summary().get("last_completed_step"));
            assertFalse(Files.exists(run.resolve("slow_update/epoch_02/slow_result.json")));
            String history = Files.readString(run.resolve("history.json"));
            String state = Files.readString(run.resolve("runtime_state.json"));

            TrainingResult r = down(SimEndToEnd.demoConfig(run, twoEpochs), sim, true, false).outRoot(run).trainer().train();
            assertEquals("errored", r.stopReason());
            assertEquals("slow_update", r.summary().get("errored_stage"));
            assertFalse(Files.exists(run.resolve("slow_update/epoch_02/slow_result.json")), "not recorded as no_content");
            assertUnchanged(run, history, state);

            assertFalse(SimEndToEnd.train(sim, SimEndToEnd.demoConfig(run, twoEpochs), run).stopped());
            assertSameRun(clean, run);
            assertEquals(Json.read(clean.resolve("slow_update/epoch_02/slow_result.json")) instanceof Map<?, ?> m ? m.get("action") : null,
                    ((Map<?, ?>) Json.read(run.resolve("slow_update/epoch_02/slow_result.json"))).get("action"));
            assertEquals(Files.readString(clean.resolve("meta_skill/epoch_02/meta_skill_result.json")).replaceAll("\"time_s\": [0-9.]+", ""),
                    Files.readString(run.resolve("meta_skill/epoch_02/meta_skill_result.json")).replaceAll("\"time_s\": [0-9.]+", ""));
        }
    }

    @Test void allItemsErroredStopEvenAtThresholdOneAndABadThresholdIsAConfigError() throws Exception {
        Path run = tmp.resolve("run");
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            // all target calls refused: 100 % errored is above any threshold, even 1.0 (nothing would be scored)
            TrainingResult r = down(SimEndToEnd.demoConfig(run, concat(SMALL, "train.max_errored_fraction=1.0")), sim, false, true)
                    .outRoot(run).trainer().train();
            assertEquals("errored", r.summary().get("stop_reason"));
            assertEquals("rollout", r.summary().get("errored_stage"));
        }
        assertThrows(io.skillopt4j.ConfigException.class,
                () -> SimEndToEnd.demoConfig(run, concat(SMALL, "train.max_errored_fraction=1.5")).outRoot(run).trainer());
    }

    /** Every file's exact bytes (as hex of its SHA-256), by path relative to {@code root}. */
    private static Map<String, String> rawFiles(Path root) throws IOException {
        Map<String, String> out = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(f).toString(), java.util.HexFormat.of().formatHex(io.skillopt4j.internal.Hashes.sha256(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    private static void assertUnchanged(Path run, String history, String state) throws IOException {
        assertEquals(history, Files.readString(run.resolve("history.json")), "history.json changed");
        assertEquals(state, Files.readString(run.resolve("runtime_state.json")), "runtime_state.json changed");
        assertFalse(Files.exists(run.resolve("summary.json")));
    }

    /** Same decisions, scores, skills and summary scores as the uninterrupted run (timings and token counts aside). */
    private static void assertSameRun(Path clean, Path run) throws IOException {
        Map<String, String> a = SimTrainingTest.snapshot(clean), b = SimTrainingTest.snapshot(run);
        for (String f : List.of("best_skill.md", "runtime_state.json")) assertEquals(a.get(f), b.get(f), f);
        // a step whose rollout an errored session stored counts those target calls in that session, not in the step
        assertEquals(tokenless(clean.resolve("history.json")), tokenless(run.resolve("history.json")), "history.json");
        List<String> skills = new ArrayList<>();
        try (Stream<Path> s = Files.list(clean.resolve("skills"))) { s.forEach(p -> skills.add("skills/" + p.getFileName())); }
        assertFalse(skills.isEmpty());
        for (String f : skills) assertEquals(a.get(f), b.get(f), f);
        Map<?, ?> sa = (Map<?, ?>) Json.read(clean.resolve("summary.json")), sb = (Map<?, ?>) Json.read(run.resolve("summary.json"));
        for (String k : List.of("test_hard", "baseline_test_hard", "final_test_hard", "best_step", "best_origin", "baseline_selection_hard",
                "best_selection_hard", "total_accepts", "total_rejects", "total_skips")) {
            assertEquals(sa.get(k), sb.get(k), k);
        }
    }

    private static String tokenless(Path history) {
        List<Object> out = new ArrayList<>();
        for (Object o : (List<?>) Json.read(history)) {
            Map<Object, Object> m = new java.util.LinkedHashMap<>((Map<?, ?>) o);
            m.remove("tokens");
            m.remove("timing");
            m.remove("wall_time_s");
            out.add(m);
        }
        return Json.pretty(out);
    }

    private static String[] concat(String[] a, String... b) {
        List<String> l = new ArrayList<>(List.of(a));
        l.addAll(List.of(b));
        return l.toArray(String[]::new);
    }
}
