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
}
