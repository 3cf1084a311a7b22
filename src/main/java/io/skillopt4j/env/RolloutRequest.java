package io.skillopt4j.env;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable. Roll out {@code batch} with {@code skill}, writing upstream's rollout directory layout under
 * {@code outDir} ({@code results.jsonl}, {@code predictions/<id>/conversation.json}, prompts). Items already
 * in {@code results.jsonl} are reused, not re-run. {@code evalFeedback} is true for training rollouts
 * (the result may carry verification text for the analysts). {@code reportProgress} false keeps the rollout off
 * the benchmark's progress callback (the trainer's background rollouts, which no progress bar should count).
 * {@code remote} runs the items on an execution engine's workers instead of this JVM's threads (null = here).
 */
public record RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback, boolean reportProgress,
                             RemoteItems remote) {
    public RolloutRequest {
        Objects.requireNonNull(batch, "batch");
        skill = skill == null ? "" : skill;
        Objects.requireNonNull(outDir, "outDir");
    }

    /** A request whose items run in this JVM. */
    public RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback, boolean reportProgress) {
        this(batch, skill, outDir, evalFeedback, reportProgress, null);
    }

    /** A request whose items run in this JVM and are reported to the benchmark's progress callback. */
    public RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback) {
        this(batch, skill, outDir, evalFeedback, true, null);
    }

    /** This request with its items run by {@code r} (null = in this JVM). */
    public RolloutRequest withRemote(RemoteItems r) {
        return new RolloutRequest(batch, skill, outDir, evalFeedback, reportProgress, r);
    }
}
