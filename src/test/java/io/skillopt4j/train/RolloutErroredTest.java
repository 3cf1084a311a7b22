package io.skillopt4j.train;

import io.skillopt4j.ErroredHalt;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The rollout stage's errored threshold: above it the stage halts; below it errored items are never scored. */
class RolloutErroredTest {
    @TempDir Path tmp;

    /** Ten items: i0..i{k-1} errored, the rest pass with hard = soft = 1. */
    private static Benchmark erroring(int k) {
        return new Benchmark() {
            @Override public String name() { return "erroring"; }
            @Override public DataLoader data() { return null; }
            @Override public List<String> taskTypes() { return List.of(); }
            @Override public List<RolloutResult> rollout(RolloutRequest req) {
                List<RolloutResult> out = new ArrayList<>();
                for (Item it : req.batch().items()) {
                    boolean err = Integer.parseInt(it.id().substring(1)) < k;
                    out.add(err ? new RolloutResult(it.id(), 0, 0, Map.of("errored", true, "fail_reason", "errored: connection refused"))
                            : new RolloutResult(it.id(), 1, 1, Map.of()));
                }
                return out;
            }
        };
    }

    private static BatchSpec batch() {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 10; i++) items.add(new Item("i" + i, Map.of()));
        return new BatchSpec("train", "train", 1, items);
    }

    @Test void byDefaultOneErroredItemHaltsTheStage() {
        UsageMeter meter = new UsageMeter();
        ErroredHalt e = assertThrows(ErroredHalt.class, () -> new Rollout(erroring(1)).withErrored(0.0, meter).run(batch(), "s", tmp, true));
        assertEquals("rollout", e.stage());
        assertEquals(1, e.errored());
        assertEquals(10, e.total());
        assertTrue(e.getMessage().startsWith("errored: 1 of 10 rollout items failed (first: connection refused"), e.getMessage());
        assertEquals(1L, meter.faultSummary().get("rollout").get("errored"));
    }

    @Test void belowTheThresholdErroredItemsAreLeftOutOfTheScoreNeverScoredZero() {
        Rollout.Outcome o = new Rollout(erroring(2)).withErrored(0.2, null).run(batch(), "s", tmp, true);
        assertEquals(8, o.results().size());
        assertEquals(2, o.errored());
        assertEquals(1.0, o.hard(), "8 of 8 scored items passed; the 2 errored ones are not zeros");
        assertTrue(o.results().stream().noneMatch(RolloutResult::isErrored));
        assertThrows(ErroredHalt.class, () -> new Rollout(erroring(3)).withErrored(0.2, null).run(batch(), "s", tmp, true));
        assertThrows(ErroredHalt.class, () -> new Rollout(erroring(10)).withErrored(1.0, null).run(batch(), "s", tmp, true),
                "nothing left to score");
    }

    @Test void theThresholdIsAFraction() {
        io.skillopt4j.config.FlatConfig bad = io.skillopt4j.config.FlatConfig.of(Map.of("max_errored_fraction", -0.1));
        assertThrows(io.skillopt4j.ConfigException.class, () -> Rollout.maxErroredFraction(bad));
        assertEquals(0.0, Rollout.maxErroredFraction(io.skillopt4j.config.FlatConfig.of(Map.of())));
    }
}
