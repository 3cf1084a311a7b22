package io.skillopt4j.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

class DemoCommandTest {
    private record Result(int code, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test void demoTrainsOnTheSimulatorPrintsTheScoreTableAndResumes(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("demo");
        Result r = run("demo", "--out_root", root.toString(), "--no-progress", "--cfg-options", "env.limit=20", "train.batch_size=10");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("deterministic stand-in for an LLM"), r.err());
        assertTrue(r.out().contains("test: best skill") && r.out().contains("validation: initial skill"), r.out());
        assertTrue(r.out().contains("best skill:  " + root.resolve("best_skill.md")), r.out());
        for (String f : new String[] {"summary.json", "best_skill.md", "report.html", "history.json", "config.json", "steps/step_0001/step_record.json"})
            assertTrue(Files.exists(root.resolve(f)), f);
        assertTrue(Files.isDirectory(root.resolve(".cache/responses")), "response cache is on for the demo");
        String summary = Files.readString(root.resolve("summary.json"));

        Result again = run("demo", "--out_root", root.toString(), "--no-progress", "--cfg-options", "env.limit=20", "train.batch_size=10");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.err().contains("resuming " + root), again.err());
        var before = io.skillopt4j.internal.Json.parseObject(summary);
        var after = io.skillopt4j.internal.Json.parseObject(Files.readString(root.resolve("summary.json")));
        for (String k : new String[] {"baseline_selection_hard", "best_selection_hard", "best_step", "baseline_test_hard", "test_hard", "total_accepts"})
            assertEquals(before.get(k), after.get(k), k);
    }

    @Test void offATerminalTheDemoPrintsStepEpochAndFinalSelectionLinesThatExplainWhereTheBestCameFrom(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("demo");
        Result r = run("demo", "--out_root", root.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("\n[step 10/10] epoch 2 "), r.err());
        assertTrue(r.err().contains("\n[epoch 1] slow_update inject_placeholder  meta_skill skip_first_epoch\n"), r.err());
        assertTrue(r.err().contains("\n[epoch 2] slow_update force_accept  meta_skill write_meta_skill\n"), r.err());
        // seed 7: the slow update's skill, taken without a gate, beats the best of the steps only at the final selection
        assertTrue(r.err().contains("\n[final_selection] final skill (slow_update_epoch_02) 1.000 > best 0.975: the final skill is the new best\n"), r.err());
        var summary = io.skillopt4j.internal.Json.parseObject(Files.readString(root.resolve("summary.json")));
        assertEquals("slow_update_epoch_02", summary.get("best_origin"));
        assertEquals(10, ((Number) summary.get("best_step")).intValue());
        assertTrue(r.out().contains("best at step 10"), r.out());
        // the score table of README.md and docs/simulator.md, each score with its 95 % interval (score_intervals.json)
        assertTrue(r.out().contains(String.join("\n",
                "                            hard     soft     95 % interval",
                "validation: initial skill   0.200             [0.073, 0.327]",
                "validation: best skill      1.000             [1.000, 1.000]",
                "test: initial skill         0.192    0.628    [0.125, 0.267]",
                "test: best skill            0.975    0.993    [0.942, 1.000]",
                "test gain (best - initial)  +0.783            [0.708, 0.859]") + "\n"), r.out());

        Result kept = run("demo", "--out_root", dir.resolve("seed3").toString(), "--seed", "3");
        assertEquals(0, kept.code(), kept.err());
        assertTrue(kept.err().contains("\n[final_selection] final skill (slow_update_epoch_02) 0.925 <= best 0.975 (step 8): the best is kept\n"), kept.err());
        assertTrue(kept.out().contains("best at step 8"), kept.out());
    }

    @Test void theProgressPrinterShowsTheFinalSelectionButNotEveryStage() {
        var fin = new io.skillopt4j.run.TrainingEvent.StageFinished(8, "final_selection", java.time.Duration.ZERO, "final skill (step_0007) 0.500 <= best 0.600 (step 4): the best is kept");
        assertEquals("[final_selection] final skill (step_0007) 0.500 <= best 0.600 (step 4): the best is kept", ProgressPrinter.line(fin));
        assertNull(ProgressPrinter.line(new io.skillopt4j.run.TrainingEvent.StageFinished(3, "rollout", java.time.Duration.ZERO, "")));
        assertNull(ProgressPrinter.line(new io.skillopt4j.run.TrainingEvent.EpochFinished(1, "", "", 0.5, 0.5)));
        assertEquals("[epoch 2] slow_update reject  meta_skill -", ProgressPrinter.line(new io.skillopt4j.run.TrainingEvent.EpochFinished(2, "reject", "", 0.5, 0.6)));
    }

    @Test void demoWithAnExplicitOpenAiCompatibleBackendNeedsABaseUrl(@TempDir Path dir) {
        if (System.getenv("OPENAI_COMPATIBLE_BASE_URL") != null) return; // a real server is configured here
        Result r = run("demo", "--backend", "openai_compatible", "--out_root", dir.resolve("x").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: model.openai_compatible_base_url is not set"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test void simServeStartsPrintsItsUrlAndStops() {
        Result r = run("sim", "serve", "--port", "0", "--seed", "3", "--latency-ms", "5-10", "--serve-ms", "200");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s)skillopt sim: OpenAI-compatible server at http://127\\.0\\.0\\.1:\\d+/v1 \\(seed 3, latency 5-10ms\\).*"), r.out());
    }

    @Test void simServeTakesAFaultSpec() {
        Result r = run("sim", "serve", "--port", "0", "--faults", "429=0.1,500=0.1,malformed=0.05,truncated=0.05", "--serve-ms", "100");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("faults 429=0.1,500=0.1,malformed=0.05,truncated=0.05,retry_after=1)"), r.out());
        Result bad = run("demo", "--sim-faults", "429=lots", "--out_root", "/nonexistent/never-created");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--sim-faults: '429=lots': the value is not a number"), bad.err());
    }

    @Test void simServeRejectsBadKnobsWithOneLine() {
        Result bad = run("sim", "serve", "--latency-ms", "fast");
        assertEquals(2, bad.code());
        assertEquals(1, bad.err().strip().lines().count(), bad.err());
        assertTrue(bad.err().contains("latency 'fast' is not valid"), bad.err());
        Result rate = run("sim", "serve", "--fault-500", "1.5");
        assertEquals(2, rate.code());
        assertTrue(rate.err().contains("--fault-500 must be in [0, 1], got 1.5"), rate.err());
    }

    /** docs/training.md "The honest gate and error bars": the demo with the honest gate on the noisy simulator. */
    @Test void theHonestGateDemoOfTheTrainingDocRuns(@TempDir Path dir) throws Exception {
        String cmd = "./skillopt demo --sim-noise 0.2 --sim-noise-seed 3 --gate_test paired_bootstrap --eval_repeats 2";
        assertTrue(Files.readString(Path.of("docs/training.md")).contains(cmd), "the example is in the doc");
        Path root = dir.resolve("honest");
        Result r = run("demo", "--out_root", root.toString(), "--no-progress", "--sim-noise", "0.2", "--sim-noise-seed", "3",
                "--gate_test", "paired_bootstrap", "--eval_repeats", "2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("95 % interval"), r.out());
        assertTrue(Files.readString(root.resolve("history.json")).contains("\"gate_test\": \"paired_bootstrap\""), "the steps record the paired test");
        var summary = io.skillopt4j.internal.Json.parseObject(Files.readString(root.resolve("summary.json")));
        assertTrue(summary.get("score_intervals") instanceof java.util.Map<?, ?>, summary.toString());
    }
}
