package io.skillopt4j.env;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable. Roll out {@code batch} with {@code skill}, writing upstream's rollout directory layout under
 * {@code outDir} ({@code results.jsonl}, {@code predictions/<id>/conversation.json}, prompts). Items already
 * in {@code results.jsonl} are reused, not re-run. {@code evalFeedback} is true for training rollouts
 * (the result may carry verification text for the analysts). {@code reportProgress} false keeps the rollout off
 * the benchmark's progress callback (the trainer's background rollouts, which no progress bar should count).
 */
public record RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback, boolean reportProgress) {
    public RolloutRequest {
        Objects.requireNonNull(batch, "batch");
        skill = skill == null ? "" : skill;
        Objects.requireNonNull(outDir, "outDir");
    }

    /** A request whose items are reported to the benchmark's progress callback. */
    public RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback) {
        this(batch, skill, outDir, evalFeedback, true);
    }
}
