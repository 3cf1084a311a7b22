package io.skillopt4j.env;

import java.util.List;

/**
 * Thread-safe. Runs a rollout's items outside this JVM's rollout threads — on an execution engine's workers — and
 * hands each settled item back to the {@link RolloutRunner}, which writes the rollout folder exactly as for items
 * it ran itself. A request without one ({@link RolloutRequest#remote()} null) runs in this JVM.
 */
public interface RemoteItems {
    /** Receives settled items; may be called from several threads. */
    @FunctionalInterface
    interface Sink {
        /**
         * Item {@code index} (into the list given to {@link #run}) settled as {@code row}; {@code artefacts} holds its
         * conversation, prompts and files, or is null when the item left none (a timeout or error row).
         */
        void done(int index, RolloutResult row, RolloutRunner.Outcome artefacts);
    }

    /**
     * Runs {@code items} of {@code request} (the ones not in its results file yet) and returns once every item was
     * passed to {@code sink}. Per-item timeouts and error rows are the remote runner's; an exception here means the
     * engine itself failed (the rollout then fails as a backend failure would).
     */
    void run(RolloutRequest request, List<Item> items, Sink sink);
}
