package io.skillopt4j.env;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Thread-safe. Lets a caller watch the rows of the rollouts it runs as they settle: {@link RolloutRunner} hands every
 * row of a rollout run on the observing thread (not on threads it starts) to the observer — rows reused from
 * {@code results.jsonl} at once, new ones as they finish, in completion order, errored ones included. The trainer
 * decides a gate from the first rows of a selection evaluation when the last ones can no longer change it.
 */
public final class ItemObserver {
    private static final ThreadLocal<Consumer<RolloutResult>> CURRENT = new ThreadLocal<>();

    private ItemObserver() {}

    /** Runs {@code work} with its rollouts' rows also handed to {@code onItem} (thread-safe and quick; its failures are ignored). */
    public static <T> T observed(Consumer<RolloutResult> onItem, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, onItem, work);
    }

    /** The observer of this thread's rollouts, or null. */
    static Consumer<RolloutResult> current() { return CURRENT.get(); }
}
