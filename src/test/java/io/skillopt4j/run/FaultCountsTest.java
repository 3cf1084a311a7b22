package io.skillopt4j.run;

import io.skillopt4j.backend.UsageMeter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class FaultCountsTest {
    @TempDir Path tmp;

    @Test void sessionsAddUpTornLinesAreSkippedAndAFaultFreeSessionWritesNothing() throws Exception {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        FaultCounts.append(w, "finished", 5, new UsageMeter().faultSummary());
        assertFalse(Files.exists(tmp.resolve(RunPaths.FAULTS)), "no file for a fault-free session (the shared workload's folder)");

        UsageMeter first = new UsageMeter();
        for (int i = 0; i < 3; i++) first.recordFault("target", "rollout", "errored");
        first.recordFault("optimizer", "analyst", "retries");
        FaultCounts.append(w, "errored", 3, first.faultSummary());
        assertEquals("errored", FaultCounts.lastOutcome(tmp, 3));
        assertEquals("", FaultCounts.lastOutcome(tmp, 4), "a later session moved on");

        UsageMeter second = new UsageMeter();
        second.recordFault("target", "rollout", "retries");
        FaultCounts.append(w, "finished", 5, second.faultSummary());
        Files.writeString(tmp.resolve(RunPaths.FAULTS), "{\"outcome\": \"err", StandardOpenOption.APPEND);

        var sum = FaultCounts.stored(tmp);
        assertEquals(List.of("analyst", "rollout", "_total"), List.copyOf(sum.keySet()));
        assertEquals(3L, sum.get("rollout").get("errored"));
        assertEquals(1L, sum.get("rollout").get("retries"));
        assertEquals(2L, FaultCounts.total(sum, "retries"));
        assertEquals("finished", FaultCounts.lastOutcome(tmp, 5), "the torn last line is skipped");
        assertEquals(FaultCounts.stored(tmp), FaultCounts.plus(FaultCounts.empty(), sum));
    }
}
