package io.skillopt4j.internal;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Stateless. Runs work with a thread-local bound to a value and puts back what was bound before (removing the entry
 * when nothing was), so scopes nest and a pool thread keeps no stale binding.
 */
public final class ThreadScopes {
    private ThreadScopes() {}

    /** Returns {@code work}'s result, run with {@code local} set to {@code value}. */
    public static <V, T> T with(ThreadLocal<V> local, V value, Supplier<T> work) {
        try {
            return call(local, value, work::get);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e); // a Supplier throws no checked exception: not reached
        }
    }

    /** As {@link #with}, for work that may throw a checked exception. */
    public static <V, T> T call(ThreadLocal<V> local, V value, Callable<T> work) throws Exception {
        V before = local.get();
        local.set(value);
        try {
            return work.call();
        } finally {
            if (before == null) local.remove(); else local.set(before);
        }
    }
}
