package io.skillopt4j.train;

import io.skillopt4j.internal.Daemons;
import io.skillopt4j.internal.ThreadScopes;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/** Stateless. Daemon threads for tasks that only wait on the pools; an interrupted {@link Run} stops, awaits them. */
final class ThreadPerTask {
    private ThreadPerTask() {}

    /** The threads started for one training (from its thread or from threads started inside it). */
    static final class Run {
        private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        private volatile boolean interrupted;

        /** True once {@link #interrupted()} stopped this training's threads. */
        boolean wasInterrupted() { return interrupted; }
    }

    private static final InheritableThreadLocal<Run> RUN = new InheritableThreadLocal<>();

    /** Runs {@code work} with the threads it starts recorded in {@code run}. */
    static <T> T in(Run run, Supplier<T> work) { return ThreadScopes.with(RUN, run, work); }

    static Executor named(String name) { return r -> start(name, r); }

    /** Starts {@code work} on a new daemon thread named {@code name}, recorded in the caller's {@link Run} while it runs. */
    static Thread start(String name, Runnable work) {
        Run run = RUN.get();
        if (run == null) return Daemons.start(name, work);
        Thread t = Daemons.named(name).newThread(() -> {
            try {
                work.run();
            } finally {
                run.threads.remove(Thread.currentThread()); // a long run starts a few a step: only live ones are kept
            }
        });
        run.threads.add(t); // before it starts, so that it cannot end unrecorded
        t.start();
        return t;
    }

    /** Called by the training's thread, its interrupt cleared: interrupts the run's live threads and waits for them. */
    static void interrupted() {
        Run run = RUN.get();
        if (run == null) return;
        run.interrupted = true;
        List<Thread> live = List.copyOf(run.threads);
        live.forEach(Thread::interrupt);
        live.forEach(Daemons::joinQuietly); // pressed twice: the wait is still what keeps the folder whole
    }
}
