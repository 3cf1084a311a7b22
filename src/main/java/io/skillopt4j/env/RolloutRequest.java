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
 * {@code erroredLimit} is how many items may error before the stage is bound to stop ({@code train.max_errored_fraction}
 * of its items; -1 = no limit): past it, items not yet started are left for the resumed run, and the rollout ends with
 * an {@link io.skillopt4j.ErroredHalt} once the items in flight settle, instead of running every remaining item
 * into a down provider first.
 */
public record RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback, boolean reportProgress,
                             RemoteItems remote, int erroredLimit) {
    public RolloutRequest {
        Objects.requireNonNull(batch, "batch");
        skill = skill == null ? "" : skill;
        Objects.requireNonNull(outDir, "outDir");
    }

    /** A request with no errored limit. */
    public RolloutRequest(BatchSpec batch, String skill, Path outDir, boolean evalFeedback, boolean reportProgress,
                          RemoteItems remote) {
        this(batch, skill, outDir, evalFeedback, reportProgress, remote, -1);
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
        return new RolloutRequest(batch, skill, outDir, evalFeedback, reportProgress, r, erroredLimit);
    }

    /** This request stopping once more than {@code limit} items errored (-1 = never). */
    public RolloutRequest withErroredLimit(int limit) {
        return new RolloutRequest(batch, skill, outDir, evalFeedback, reportProgress, remote, Math.max(-1, limit));
    }
}
