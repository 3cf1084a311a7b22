package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A run crashed in the middle of a step — a copy of its folder taken then, minus results whose calls were made but
 * not yet stored, as a kill between the reply and the write leaves it — and resumed through the public API: summary.json's
 * token_summary equals the uninterrupted run's (the redone calls count once), while cost_ledger.jsonl holds more calls
 * than the uninterrupted run's (the lost ones were paid for too).
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

    /**
     * Drops the last rows (up to {@code n}, one kept) of the step's fullest results.jsonl and its first analyst patch:
     * results whose calls were made and journaled, lost to a kill before they were written. Returns how many were lost.
     */
    private static int loseResults(Path stepDir, int n) throws Exception {
        int lost = 0;
        Path fullest = null;
        long most = 0;
        try (var files = Files.walk(stepDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals("results.jsonl")).toList()) {
                long rows = Files.readAllLines(f).size();
                if (rows > most) { most = rows; fullest = f; }
            }
        }
        if (fullest != null && most > 1) {
            List<String> rows = Files.readAllLines(fullest);
            int cut = (int) Math.min(n, most - 1);
            Files.writeString(fullest, String.join("\n", rows.subList(0, rows.size() - cut)) + "\n");
            lost += cut;
        }
        Path patches = stepDir.resolve("patches");
        if (Files.isDirectory(patches)) {
            try (var p = Files.list(patches)) {
                Path first = p.sorted().findFirst().orElse(null);
                if (first != null) { Files.delete(first); lost++; }
            }
        }
        return lost;
    }

    @Test
    void aRunCrashedMidStepAndResumedReportsTheUninterruptedTokenSummary() throws Exception {
        try (io.skillopt4j.sim.SimServer sim = io.skillopt4j.sim.SimServer.builder().seed(7).start()) {
            Path reference = tmp.resolve("reference");
            List<Path> snapshots = new ArrayList<>();
            TrainingListener snap = new TrainingListener() {
                @Override public void on(TrainingEvent e) {
                    if (!(e instanceof TrainingEvent.StageFinished f)) return;
                    if (f.step() == 2 && f.stage().equals("aggregate") || f.step() == 3 && f.stage().equals("reflect")) {
                        Path to = tmp.resolve("crash" + f.step());
                        ResumeAnywhereTest.copy(reference, to);
                        snapshots.add(to);
                    }
                }
            };
            EngineRuns.train(EngineRuns.config(reference), reference, sim.url(), null, snap);
            assertEquals(2, snapshots.size(), "copies taken mid-step 2 and mid-step 3");
            // rollout rows and an analyst's patch of the step in progress were lost
            assertTrue(loseResults(snapshots.get(0).resolve("steps/step_0002"), 2) > 0, "step 2 had results to lose");
            assertTrue(loseResults(snapshots.get(1).resolve("steps/step_0003"), 3) > 0, "step 3 had results to lose");

            Map<?, ?> expected = (Map<?, ?>) ((Map<?, ?>) Json.read(reference.resolve("summary.json"))).get("token_summary");
            assertTrue(((Number) ((Map<?, ?>) expected.get("_total")).get("calls")).longValue() > 0);
            for (Path s : snapshots) {
                assertFalse(Files.exists(s.resolve("summary.json")));
                EngineRuns.train(EngineRuns.config(s), s, sim.url(), null);
                Map<?, ?> got = (Map<?, ?>) ((Map<?, ?>) Json.read(s.resolve("summary.json"))).get("token_summary");
                assertEquals(expected, got, s.getFileName() + ": token_summary of the resumed run");
                assertTrue(ledgerCalls(s) > ledgerCalls(reference), s.getFileName() + ": the ledger keeps the lost calls too: "
                        + ledgerCalls(s) + " vs " + ledgerCalls(reference));
                assertEquals(ResumeAnywhereTest.comparable(reference), ResumeAnywhereTest.comparable(s), s.getFileName().toString());
                ResumeAnywhereTest.assertEveryLineParses(s);
            }
        }
    }
}
