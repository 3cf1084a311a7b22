package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class EditBudgetScheduleTest {
    private static List<Integer> run(String mode, int max, int min, int total, int steps) {
        EditBudgetSchedule s = new EditBudgetSchedule(mode, max, min, total);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < steps; i++) out.add(s.next());
        return out;
    }

    @Test
    void matchesTheReferenceExampleSequences() {
        assertEquals(List.of(4, 4, 3, 3, 3, 2, 2, 2), run("cosine", 4, 2, 8, 8));
        assertEquals(List.of(8, 7, 6, 5, 4, 3, 2, 2), run("cosine", 8, 2, 8, 8));
        assertEquals(List.of(7, 6, 6, 5, 4, 4, 3, 2), run("linear", 8, 2, 8, 8));
        assertEquals(List.of(4, 4, 3, 3, 3, 2, 2, 2), run("linear", 4, 2, 8, 8));
        List<Integer> forty = new ArrayList<>();
        forty.addAll(Collections.nCopies(13, 4));
        forty.addAll(Collections.nCopies(13, 3));
        forty.addAll(Collections.nCopies(14, 2));
        assertEquals(forty, run("cosine", 4, 2, 40, 40));
    }

    @Test
    void roundsHalfToEvenLikePython() {
        // linear 5→0 over 2 steps: 5 - 5*0.5 = 2.5 → 2 (Java Math.round would give 3)
        assertEquals(2, new EditBudgetSchedule("linear", 5, 0, 2).budget(1));
        // 4 - 1*0.5 = 3.5 → 4
        assertEquals(4, new EditBudgetSchedule("linear", 4, 2, 4).budget(1));
    }

    @Test
    void plateausAtMinAfterTheLastStepAndHandlesTinyRuns() {
        assertEquals(List.of(2, 2), run("linear", 4, 2, 2, 4).subList(2, 4));
        assertEquals(List.of(6, 6), run("cosine", 6, 1, 1, 2));
        assertEquals(List.of(3, 3, 3), run("constant", 3, 1, 10, 3));
        assertEquals(List.of(999, 999), run("autonomous", 3, 1, 10, 2));
    }

    @Test
    void resetSetsTheCounterForResume() {
        EditBudgetSchedule s = new EditBudgetSchedule("cosine", 4, 2, 8);
        s.reset(5);
        assertEquals(2, s.next());
        assertEquals(6, s.current());
    }

    @Test
    void rejectsUnknownSchedulerNames() {
        ConfigException e = assertThrows(ConfigException.class, () -> new EditBudgetSchedule("step", 4, 2, 8));
        assertEquals("lr_scheduler must be one of constant, linear, cosine, autonomous, got \"step\"", e.getMessage());
    }
}
