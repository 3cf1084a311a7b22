package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** docs/cost.md's walk-through: the demo under a $0.02 cap stops before it, then resumes to completion. */
class BudgetDemoTest {
    static double ledgerTotal(Path root) throws Exception {
        double usd = 0;
        for (String line : Files.readAllLines(root.resolve("cost_ledger.jsonl"))) {
            Map<String, Object> e = Json.parseObject(line);
            assertNotNull(e.get("usd"), "every simulator call is priced: " + line);
            usd += ((Number) e.get("usd")).doubleValue();
        }
        return usd;
    }

    @Test void demoStopsBeforeTheCapAndResumesWithAHigherOne(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("capped");
        CliRun r = CliRun.run("demo", "--budget_usd", "0.02", "--out_root", root.toString(), "--no-progress");
        assertEquals(1, r.code(), r.err());
        String line = r.err().lines().filter(l -> l.startsWith("budget: ")).findFirst().orElseThrow(() -> new AssertionError(r.err()));
        assertTrue(line.matches("budget: stopped before the next model call: spent \\$0\\.0\\d{3} \\+ reserved \\$0\\.\\d{4} .* cap \\$0\\.0200; .*--budget_usd"), line);
        assertFalse(Files.exists(root.resolve("summary.json")));
        double first = ledgerTotal(root);
        assertTrue(first > 0.01 && first <= 0.02, "spent " + first);

        CliRun again = CliRun.run("demo", "--budget_usd", "1", "--out_root", root.toString(), "--no-progress");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.err().contains("resuming " + root), again.err());
        assertTrue(again.out().contains("cost: $0.1"), again.out());
        double total = ledgerTotal(root);
        assertTrue(total > first && total <= 1.0, "spent " + total);

        Path free = dir.resolve("uncapped");
        assertEquals(0, CliRun.run("demo", "--out_root", free.toString(), "--no-progress").code());
        Map<String, Object> a = Json.parseObject(Files.readString(root.resolve("summary.json")));
        Map<String, Object> b = Json.parseObject(Files.readString(free.resolve("summary.json")));
        for (String k : new String[] {"baseline_selection_hard", "best_selection_hard", "best_step", "test_hard", "total_accepts"})
            assertEquals(b.get(k), a.get(k), k + ": a budget stop and resume changes nothing the run computes");
        assertEquals(ledgerTotal(free), total, 1e-9, "the resumed run paid for each call once");
    }

    @Test void batchModeTrainsThroughTheSimulatorsBatchApiAtHalfPriceWithTheSameScores(@TempDir Path dir) throws Exception {
        Path direct = dir.resolve("direct"), batch = dir.resolve("batch");
        String[] small = {"--cfg-options", "env.limit=20", "train.batch_size=10"};
        assertEquals(0, CliRun.run(concat(new String[] {"demo", "--out_root", direct.toString(), "--no-progress"}, small)).code());
        CliRun r = CliRun.run(concat(new String[] {"demo", "--out_root", batch.toString(), "--no-progress", "--sim-batch-delay-ms", "50"},
                new String[] {"--cfg-options", "env.limit=20", "train.batch_size=10", "evaluation.batch_api=true", "evaluation.batch_poll_seconds=0.02"}));
        assertEquals(0, r.code(), r.err());
        Map<String, Object> a = Json.parseObject(Files.readString(direct.resolve("summary.json")));
        Map<String, Object> b = Json.parseObject(Files.readString(batch.resolve("summary.json")));
        for (String k : new String[] {"baseline_selection_hard", "best_selection_hard", "best_step", "baseline_test_hard", "test_hard"})
            assertEquals(a.get(k), b.get(k), k);
        long batched = Files.readAllLines(batch.resolve("cost_ledger.jsonl")).stream().filter(l -> l.contains("\"batch\": true")).count();
        assertTrue(batched > 20, "evaluation calls went through the batch API: " + batched);
        assertTrue(Files.readString(batch.resolve("selection_eval_baseline/batch_api.json")).contains("\"openai\""));
        assertFalse(Files.exists(batch.resolve("steps/step_0001/rollout/batch_api.json")), "training rollouts (eval feedback) stay direct");
        assertTrue(Files.exists(batch.resolve("test_eval/batch_api.json")));
        assertTrue(ledgerTotal(batch) < ledgerTotal(direct), ledgerTotal(batch) + " vs " + ledgerTotal(direct));
        var cost = io.skillopt4j.frames.RunFrames.load(batch).cost();
        assertTrue(cost.footer().contains("batch "), cost.footer());
        assertEquals("_total", cost.stringColumn("phase").get(cost.rowCount() - 1));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
