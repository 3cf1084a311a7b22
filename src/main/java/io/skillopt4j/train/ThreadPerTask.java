package io.skillopt4j.train;

import java.util.concurrent.Executor;

/**
 * Stateless. An executor that runs each task on a new daemon thread: for the trainer's coordinating tasks (a batch's
 * reflect, a merge level, a rollout or meta-skill call started ahead), which only wait on the shared pools and so must
 * not take a pool slot themselves.
 */
final class ThreadPerTask {
    private ThreadPerTask() {}

    /** Runs each task on a new daemon thread named {@code name}. */
    static Executor named(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            t.start();
        };
    }
}
