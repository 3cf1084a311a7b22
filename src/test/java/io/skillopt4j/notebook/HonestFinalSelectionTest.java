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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/training.md "The honest gate and error bars": the final selection tests the best skill against the final one
 * (changed without a gate by the epoch-2 slow update) and keeps the best only when the test finds it truly better.
 */
class HonestFinalSelectionTest {
    @Test void theFinalSkillBecomesTheBestUnlessTheBestIsTrulyBetter(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("honest");
        try (var sim = SimServer.builder().seed(7).noise(0.2, 3).start()) {
            Run r = SkillOpt.config("configs/demo/default.yaml").simulator(sim).outRoot(out)
                    .set("evaluation.gate_test", "paired_bootstrap").set("evaluation.eval_repeats", 2).train();
            Map<String, Object> summary = r.snapshot().summary();
            Map<?, ?> slow = (Map<?, ?>) Json.read(out.resolve("slow_update/epoch_02/slow_result.json"));
            assertEquals("force_accept", slow.get("action"), "the demo config takes the slow update without a gate");
            @SuppressWarnings("unchecked") Map<String, Object> gate = (Map<String, Object>) summary.get("final_selection_gate");
            assertNotNull(gate, "the slow update changed the final skill: the final selection compares");
            assertEquals("paired_bootstrap", gate.get("gate_test"));
            assertTrue(Files.isRegularFile(out.resolve("final_selection_eval_best/results.jsonl")), "the best is the candidate");
            assertTrue(Files.isRegularFile(out.resolve("final_selection_eval_r2/results.jsonl")), "the final skill the reference");
            List<?> history = (List<?>) Json.read(out.resolve("history.json"));
            int last = ((Number) ((Map<?, ?>) history.get(history.size() - 1)).get("step")).intValue();
            String best = Files.readString(out.resolve("best_skill.md"));
            String fin = Files.readString(out.resolve("skills").resolve(String.format("skill_v%04d.md", last)));
            boolean bestTrulyBetter = ((Number) ((List<?>) gate.get("gate_interval")).get(0)).doubleValue() > 0;
            if (bestTrulyBetter) {
                assertNotEquals(fin, best);
            } else {
                assertEquals(fin, best, "the best is not truly better: the final skill is handed over");
                assertEquals(summary.get("current_origin"), summary.get("best_origin"));
                assertEquals(((Number) summary.get("final_selection_hard")).doubleValue(), ((Number) summary.get("best_selection_hard")).doubleValue(), 1e-12);
            }
        }
    }
}
