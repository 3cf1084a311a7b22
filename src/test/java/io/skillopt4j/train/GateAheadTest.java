package io.skillopt4j.train;

import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The early gate decision: only when the rows still missing cannot change the strict-greater decision. */
class GateAheadTest {
    private static final Gate HARD = new Gate(TrainSettings.from(FlatConfig.of(Map.of())));

    private static RolloutResult row(double hard) { return new RolloutResult("i", hard, hard, Map.of()); }

    private static RolloutResult errored() { return new RolloutResult("e", 0, 0, Map.of(RolloutResult.ERRORED, true)); }

    /** Feeds {@code rows} to a 10-item evaluation against a current score; returns the decisions handed on. */
    private static List<String> decide(Gate g, double current, RolloutResult... rows) {
        List<String> out = new ArrayList<>();
        GateAhead a = new GateAhead(10, g, "candidate", "current", current, out::add);
        for (RolloutResult r : rows) a.accept(r);
        return out;
    }

    @Test void acceptsOnceEvenZeroesForTheRestBeatTheCurrentScore() {
        // 0.3 to beat: 4 right of 10 is 0.4 whatever the other six score
        assertEquals(List.of(), decide(HARD, 0.3, row(1), row(1), row(1)));
        assertEquals(List.of("candidate"), decide(HARD, 0.3, row(1), row(1), row(1), row(1)));
        assertEquals(List.of("candidate"), decide(HARD, 0.3, row(1), row(1), row(1), row(1), row(1)), "decided once");
    }

    @Test void rejectsOnceEvenOnesForTheRestCannotBeatIt() {
        // 0.8 to beat (strictly): three wrong of 10 leave at most 0.7
        assertEquals(List.of(), decide(HARD, 0.8, row(0), row(0)));
        assertEquals(List.of("current"), decide(HARD, 0.8, row(0), row(0), row(0)));
        // a score that can at best tie is left to the step itself (the rounding margin): it decides from all rows as before
        assertEquals(List.of(), decide(HARD, 0.8, row(0), row(0), row(1), row(1), row(1), row(1), row(1), row(1), row(1), row(1)));
    }

    @Test void staysOpenWhileTheLastRowsCanStillTipIt() {
        // 0.5 to beat, 8 known with 5 right: 0.5 .. 0.7 depending on the last two
        assertEquals(List.of(), decide(HARD, 0.5, row(1), row(1), row(1), row(1), row(1), row(0), row(0), row(0)));
    }

    @Test void anErroredRowLeavesTheMeanAndARowOutsideTheUnitRangeTurnsItOff() {
        // nine errored, one right: the mean over scored rows is 1.0, so 0.9 is beaten only once the last row is known
        RolloutResult[] rows = new RolloutResult[10];
        for (int i = 0; i < 9; i++) rows[i] = errored();
        rows[9] = row(1);
        assertEquals(List.of("candidate"), decide(HARD, 0.9, rows));
        assertEquals(List.of(), decide(HARD, 0.9, java.util.Arrays.copyOf(rows, 9)));
        assertEquals(List.of(), decide(HARD, 0.3, new RolloutResult("x", 2, 2, Map.of()), row(1), row(1), row(1), row(1), row(1)));
    }

    @Test void usesTheConfiguredGateScore() {
        Gate soft = new Gate(TrainSettings.from(FlatConfig.of(Map.of("gate_metric", "soft"))));
        RolloutResult halfRight = new RolloutResult("s", 1, 0.5, Map.of());
        // soft 0.5 on eight rows: 0.4 .. 0.6 with the last two, against 0.35 an accept already
        assertEquals(List.of("candidate"), decide(soft, 0.35, halfRight, halfRight, halfRight, halfRight, halfRight, halfRight, halfRight, halfRight));
        assertEquals(List.of(), decide(soft, 0.45, halfRight, halfRight, halfRight, halfRight, halfRight, halfRight, halfRight, halfRight));
    }
}
