package io.skillopt4j.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Stateless. Daemon threads: none of the library's own threads may keep a JVM alive after its work returned. */
public final class Daemons {
    private Daemons() {}

    /** A factory of daemon threads, each named {@code name}. */
    public static ThreadFactory named(String name) { return r -> daemon(new Thread(r, name)); }

    /** A factory of daemon threads named {@code prefix}1, {@code prefix}2, ... */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> daemon(new Thread(r, prefix + n.incrementAndGet()));
    }

    /** Starts {@code work} on a new daemon thread named {@code name}. */
    public static Thread start(String name, Runnable work) {
        Thread t = daemon(new Thread(work, name));
        t.start();
        return t;
    }

    /**
     * Waits until {@code pool}, shut down, has run out, whatever interrupts this thread meanwhile; returns whether one
     * did. The interrupt is taken, not set again: the callers are already stopping for one and set it once done.
     */
    public static boolean awaitQuietly(java.util.concurrent.ExecutorService pool) {
        return quietly(pool::isTerminated, () -> pool.awaitTermination(1, java.util.concurrent.TimeUnit.DAYS));
    }

    /** As {@link #awaitQuietly}, until thread {@code t} has ended. */
    public static boolean joinQuietly(Thread t) { return quietly(() -> !t.isAlive(), t::join); }

    private interface Wait {
        void run() throws InterruptedException;
    }

    private static boolean quietly(java.util.function.BooleanSupplier done, Wait wait) {
        boolean interrupted = false;
        while (!done.getAsBoolean()) {
            try {
                wait.run();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }

    private static Thread daemon(Thread t) {
        t.setDaemon(true);
        return t;
    }
}
