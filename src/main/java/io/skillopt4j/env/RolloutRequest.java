package io.skillopt4j.env;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable. Roll out {@code batch} with {@code skill} under {@code outDir}. {@code evalFeedback}: a training rollout;
 * {@code reportProgress} false: a background rollout; {@code remote}: an engine's workers run the items (null: here);
 * {@code erroredLimit}: past this many errored items (-1: none) no item starts, and it ends in an ErroredHalt.
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

    /** A request whose items run in this JVM and count for the progress callback. */
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
