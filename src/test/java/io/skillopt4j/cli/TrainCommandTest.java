package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class TrainCommandTest {
    @TempDir Path tmp;

    private Path config(SimServer sim, Path out) throws Exception {
        return HouseYaml.at(sim.url()).put("train.num_epochs", 2).put("gradient.analyst_workers", 4)
                .put("optimizer.use_slow_update", true).put("optimizer.slow_update_samples", 6).put("optimizer.use_meta_skill", true)
                .put("env.workers", 4).write(tmp, out);
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void trainsOnTheSimulatorWithOneProgressLinePerStepAndEvaluatesTheBestSkill() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(java.time.Duration.ZERO).start()) {
            Path out = tmp.resolve("run");
            Path cfg = config(sim, out);
            StringWriter o = new StringWriter(), e = new StringWriter();
            int code = run(o, e, "train", "--config", cfg.toString());
            assertEquals(0, code, e.toString());
            List<String> lines = o.toString().lines().toList();
            assertTrue(lines.get(0).startsWith("[train] " + out), lines.get(0));
            assertEquals(2, lines.stream().filter(l -> l.startsWith("[step ")).filter(l -> l.contains("epoch 1")).count(), o.toString());
            assertTrue(lines.get(lines.size() - 1).startsWith("[done] best step "), o.toString());
            Map<?, ?> summary = (Map<?, ?>) Json.read(out.resolve("summary.json"));
            assertTrue((double) summary.get("test_hard") > (double) summary.get("baseline_test_hard"),
                    "the trained skill beats the initial one on the held-out split: " + summary);
            assertTrue(Files.isRegularFile(out.resolve("meta_skill/epoch_02/meta_skill_result.json")));

            StringWriter o2 = new StringWriter(), e2 = new StringWriter();
            Path evalOut = tmp.resolve("eval");
            code = run(o2, e2, "eval", "--config", cfg.toString(), "--skill", out.resolve("best_skill.md").toString(),
                    "--split", "valid_unseen", "--out_root", evalOut.toString());
            assertEquals(0, code, e2.toString());
            Map<?, ?> ev = (Map<?, ?>) Json.read(evalOut.resolve("eval_summary.json"));
            assertEquals(List.of("skill", "split", "n_items", "hard", "soft"), List.copyOf(ev.keySet()));
            assertEquals(summary.get("test_hard"), ev.get("hard"));
            assertTrue(o2.toString().contains("Results: hard="));
        }
    }

    @Test
    void aMissingSkillFileIsAUserError() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(java.time.Duration.ZERO).start()) {
            Path cfg = config(sim, tmp.resolve("run"));
            StringWriter o = new StringWriter(), e = new StringWriter();
            assertEquals(2, run(o, e, "eval", "--config", cfg.toString(), "--skill", tmp.resolve("nope.md").toString()));
            assertTrue(e.toString().startsWith("error: --skill: file not found: "), e.toString());
        }
    }
}
