package io.skillopt4j.internal;

import java.util.function.Supplier;

/**
 * Stateless. Runs work with a thread-local bound to a value and puts back what was bound before (removing the
 * entry when nothing was), so scopes nest and a pool thread keeps no stale binding: the shape of every
 * "calls of this thread (and threads it starts) go to X" scope — phases, held meters, batches, transport logs,
 * item observers and trace collectors.
 */
public final class ThreadScopes {
    private ThreadScopes() {}

    /** Returns {@code work}'s result, run with {@code local} set to {@code value}. */
    public static <V, T> T with(ThreadLocal<V> local, V value, Supplier<T> work) {
        V before = local.get();
        local.set(value);
        try {
            return work.get();
        } finally {
            if (before == null) local.remove(); else local.set(before);
        }
    }
}
