package io.skillopt4j.env;

import java.util.List;

/**
 * Thread-safe. Runs a rollout's items on an execution engine's workers and hands each settled item back to the
 * {@link RolloutRunner}, which writes the rollout folder exactly as for items it ran itself.
 */
public interface RemoteItems {
    /** Receives settled items; may be called from several threads. */
    @FunctionalInterface
    interface Sink {
        /** Item {@code index} of {@link #run}'s list settled; {@code artefacts} null when it left none. */
        void done(int index, RolloutResult row, RolloutRunner.Outcome artefacts);
    }

    /** Returns once every item was passed to {@code sink}; throws only when the engine itself failed. */
    void run(RolloutRequest request, List<Item> items, Sink sink);
}
