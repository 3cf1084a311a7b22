package io.skillopt4j.run;

import io.skillopt4j.env.RolloutResult;

import java.nio.file.Path;
import java.util.List;

/**
 * Immutable. The results of one adapter rollout directory ({@code results.jsonl}, upstream-trainer §6.6).
 * {@code phase} names where it came from ({@code train}, {@code selection}, {@code selection_baseline},
 * {@code final_selection}, {@code test_baseline}, {@code test}, {@code test_final}, {@code slow_update_prev},
 * {@code slow_update_curr}, {@code slow_update_selection}, {@code meta_skill_prev}, {@code meta_skill_curr});
 * {@code split} is {@code train}, {@code val} or {@code test}. {@code epoch}, {@code step} and {@code batch}
 * are null when they do not apply or are unknown.
 */
public record RolloutSet(String phase, String split, Integer epoch, Integer step, Integer batch, Path dir,
                         List<RolloutResult> results) {
    public RolloutSet {
        results = results == null ? List.of() : List.copyOf(results);
    }
}
