package io.skillopt4j.notebook;

import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/training.md "The honest gate and error bars": its Java example, on the noisy simulator, shortened to one epoch. */
class HonestGateDocTest {
    @Test void theDocumentedExampleRecordsTheGateTestAndTheIntervals(@TempDir Path tmp) throws Exception {
        String doc = Files.readString(Path.of("docs/training.md"));
        assertTrue(doc.contains(".set(\"evaluation.gate_test\", \"paired_bootstrap\").set(\"evaluation.eval_repeats\", 2)"), "the example is in the doc");
        Path out = tmp.resolve("honest");
        try (var sim = SimServer.builder().seed(7).noise(0.2, 3).start()) {
            Run r = SkillOpt.config("configs/demo/default.yaml").simulator(sim).outRoot(out)
                    .set("evaluation.gate_test", "paired_bootstrap").set("evaluation.eval_repeats", 2)
                    .set("train.num_epochs", 1).train();
            @SuppressWarnings("unchecked") Map<String, Object> ci = (Map<String, Object>) r.snapshot().summary().get("score_intervals");
            assertEquals(0.95, ci.get("confidence"));
            @SuppressWarnings("unchecked") Map<String, Object> base = (Map<String, Object>) ci.get("baseline_test_hard");
            List<?> bounds = (List<?>) base.get("interval");
            double lo = ((Number) bounds.get(0)).doubleValue(), hi = ((Number) bounds.get(1)).doubleValue();
            double est = ((Number) base.get("estimate")).doubleValue();
            assertTrue(lo <= est && est <= hi && hi - lo > 0, base.toString());
            assertEquals(((Number) r.snapshot().summary().get("baseline_test_hard")).doubleValue(), est, 1e-6);
            assertTrue(Files.isRegularFile(out.resolve("score_intervals.json")));
            List<?> history = (List<?>) Json.read(out.resolve("history.json"));
            int gated = 0;
            for (Object o : history) {
                Map<?, ?> h = (Map<?, ?>) o;
                if (!String.valueOf(h.get("action")).matches("accept|accept_new_best|reject")) continue;
                gated++;
                assertEquals("paired_bootstrap", h.get("gate_test"), h.toString());
                int k = ((Number) h.get("gate_repeats")).intValue();
                double p = ((Number) h.get("gate_p_value")).doubleValue();
                if ("unchanged_candidate".equals(h.get("gate_skipped"))) { // same text as the current skill: no call
                    assertEquals(0, k, h.toString());
                    assertEquals("reject", h.get("action"));
                    assertEquals(1.0, p);
                    continue;
                }
                assertTrue(k >= 2 && k <= 8, h.toString()); // eval_repeats 2, adaptive up to the default cap of 8
                assertTrue(p >= 0 && p <= 1);
                boolean accepted = String.valueOf(h.get("action")).startsWith("accept");
                List<?> gi = (List<?>) h.get("gate_interval");
                if (gi != null) assertEquals(accepted, ((Number) gi.get(0)).doubleValue() > 0, h.toString());
                int step = ((Number) h.get("step")).intValue();
                Path stepDir = out.resolve("steps").resolve(String.format("step_%04d", step));
                if (h.get("reference_gate_score") != null)
                    assertTrue(Files.isRegularFile(stepDir.resolve("selection_eval_current_r2").resolve("results.jsonl")), stepDir.toString());
            }
            assertTrue(gated > 0, "some step reached the gate");
            // the epoch-1 placeholder went into the best skill too, so best and final are one skill: no final comparison
            int last = ((Number) ((Map<?, ?>) history.get(history.size() - 1)).get("step")).intValue();
            assertEquals(Files.readString(out.resolve("best_skill.md")),
                    Files.readString(out.resolve("skills").resolve(String.format("skill_v%04d.md", last))));
            assertTrue(Files.readString(out.resolve("best_skill.md")).contains("SLOW_UPDATE"), "the placeholder block is in the best skill");
            assertEquals(null, r.snapshot().summary().get("final_selection_gate"));
            // the frames show the intervals from the rows
            assertTrue(r.steps().columnNames().contains("gate_p_value"));
        }
    }
}
