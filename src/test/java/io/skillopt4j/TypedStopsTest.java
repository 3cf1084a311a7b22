package io.skillopt4j;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** A caller that catches one of the typed stops reads its figures from it, not by parsing the message. */
class TypedStopsTest {
    @Test void aBudgetStopCarriesWhatWasSpentReservedAndTheCap() {
        BudgetExceeded b = new BudgetExceeded(1.25, 0.5, 1.5);
        assertEquals(1.25, b.spent());
        assertEquals(0.5, b.reserved());
        assertEquals(1.5, b.cap());
        assertTrue(b.getMessage().contains("spent $1.2500 + reserved $0.5000"), b.getMessage());
    }

    @Test void anErroredHaltCarriesItsStageCountsAndFirstReason() {
        ErroredHalt h = new ErroredHalt("rollout", 2, 10, 8, "openai_compatible: HTTP 401");
        assertEquals("rollout", h.stage());
        assertEquals(2, h.errored());
        assertEquals(10, h.total());
        assertEquals(8, h.notStarted());
        assertEquals("openai_compatible: HTTP 401", h.reason());
        assertEquals("", new ErroredHalt("merge", 1, 1, null).reason());
    }

    @Test void anInterruptedTrainingNamesItsFolder() {
        TrainingInterrupted t = new TrainingInterrupted(Path.of("runs", "a"));
        assertEquals(Path.of("runs", "a"), t.folder());
        assertTrue(t.getMessage().startsWith("training interrupted: runs/a keeps every finished step"), t.getMessage());
    }
}
