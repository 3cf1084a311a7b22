package io.skillopt4j.train;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A run crashed during its test evaluations — its finished folder minus summary.json, two evaluation folders and the last
 * rows of a third, whose calls were made (journaled, in the ledger) but whose results a kill lost — and resumed through
 * the public API: summary.json's token_summary equals the uninterrupted run's (the redone calls count once), while
 * cost_ledger.jsonl holds more calls than the uninterrupted run's (the lost ones were paid for too). Mid-step kills are
 * the job of {@code .ci/kill-campaign}; {@code UsageJournalTest} covers the counting rule call by call.
 */
class TokenSummaryResumeTest {
    @TempDir Path tmp;

    /** Calls in cost_ledger.jsonl: a line's {@code calls} (1 when absent), hedged duplicates aside. */
    private static long ledgerCalls(Path run) {
        long n = 0;
        for (Map<String, Object> l : Json.readObjectLines(run.resolve(RunPaths.COST_LEDGER))) {
            if (String.valueOf(l.get("stage")).endsWith(":hedge")) continue;
            n += l.get("calls") instanceof Number c ? c.longValue() : 1;
        }
        return n;
    }

    @Test
    void aRunCrashedDuringItsTestEvaluationsAndResumedReportsTheUninterruptedTokenSummary() throws Exception {
        try (io.skillopt4j.sim.SimServer sim = io.skillopt4j.sim.SimServer.builder().seed(7).start()) {
            Path reference = tmp.resolve("reference"), crashed = tmp.resolve("crashed");
            EngineRuns.train(EngineRuns.config(reference), reference, sim.url(), null);
            ResumeAnywhereTest.copy(reference, crashed);
            Files.delete(crashed.resolve("summary.json"));
            for (String d : List.of("test_eval", "test_eval_final")) AtomicFiles.deleteTree(crashed.resolve(d));
            Path rows = crashed.resolve("test_eval_baseline/results.jsonl");
            List<String> kept = Files.readAllLines(rows);
            Files.writeString(rows, String.join("\n", kept.subList(0, kept.size() - 3)) + "\n");

            EngineRuns.train(EngineRuns.config(crashed), crashed, sim.url(), null);
            Map<?, ?> expected = (Map<?, ?>) ((Map<?, ?>) Json.read(reference.resolve("summary.json"))).get("token_summary");
            Map<?, ?> got = (Map<?, ?>) ((Map<?, ?>) Json.read(crashed.resolve("summary.json"))).get("token_summary");
            assertTrue(((Number) ((Map<?, ?>) expected.get("_total")).get("calls")).longValue() > 0);
            assertEquals(expected, got, "token_summary of the resumed run");
            assertTrue(ledgerCalls(crashed) > ledgerCalls(reference), "the ledger keeps the lost calls too: "
                    + ledgerCalls(crashed) + " vs " + ledgerCalls(reference));
            assertEquals(ResumeAnywhereTest.comparable(reference), ResumeAnywhereTest.comparable(crashed));
            ResumeAnywhereTest.assertEveryLineParses(crashed);
        }
    }
}
