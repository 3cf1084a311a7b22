package io.skillopt4j.env;

import java.util.List;

/** Thread-safe. Runs a rollout's items on an engine's workers; the {@link RolloutRunner} writes what they settle. */
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
