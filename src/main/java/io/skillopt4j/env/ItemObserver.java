package io.skillopt4j.env;

import java.util.function.Consumer;
import java.util.function.Supplier;

/** Thread-safe. Hands the rows of this thread's rollouts to an observer as they settle (reused rows at once). */
public final class ItemObserver {
    private static final ThreadLocal<Consumer<RolloutResult>> CURRENT = new ThreadLocal<>();

    private ItemObserver() {}

    /** Runs {@code work} with its rollouts' rows also handed to {@code onItem} (thread-safe and quick; its failures are ignored). */
    public static <T> T observed(Consumer<RolloutResult> onItem, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, onItem, work);
    }

    static Consumer<RolloutResult> current() { return CURRENT.get(); }
}
