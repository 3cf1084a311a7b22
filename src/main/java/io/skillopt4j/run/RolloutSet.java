package io.skillopt4j.run;

import io.skillopt4j.env.RolloutResult;

import java.nio.file.Path;
import java.util.List;

/**
 * Immutable. The results of one adapter rollout directory (upstream-trainer §6.6); {@code phase} names where it came
 * from ({@link RolloutSets}), {@code split} is train, val or test; epoch, step and batch are null when unknown.
 */
public record RolloutSet(String phase, String split, Integer epoch, Integer step, Integer batch, Path dir,
                         List<RolloutResult> results) {
    public RolloutSet {
        results = results == null ? List.of() : List.copyOf(results);
    }
}
