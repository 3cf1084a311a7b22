package io.skillopt4j.backend.internal;

import okhttp3.ConnectionPool;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.RealConnectionPool;

import java.util.concurrent.TimeUnit;

/**
 * Thread-safe. The shared connection pool, with its idle-connection cleanup run lazily. OkHttp's own pool reschedules
 * its cleanup task every time a call hands back its connection, which wakes OkHttp's task thread after every call;
 * that thread then contends for the connection's lock with the next call (measured: a wake-up and a contended
 * monitor per call, ~20 µs of CPU each on a 2-core VM). Here nothing is woken: the cleanup thread checks the pool at
 * least every {@link #MAX_WAIT_NANOS} while there are connections, so an idle connection is closed at most that much
 * later than OkHttp would close it. Uses OkHttp 4's internal task API (public, but not a stable contract: an OkHttp
 * upgrade may need this class adapted).
 */
final class QuietPool {
    /** Longest time an eviction can lag behind OkHttp's schedule (keep-alive, or more idle connections than allowed). */
    static final long MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private QuietPool() {}

    /** A pool like {@code new ConnectionPool(maxIdle, keepAlive, unit)} (OkHttp's default: 5, 5 minutes). */
    static ConnectionPool create(int maxIdle, long keepAlive, TimeUnit unit) {
        return new ConnectionPool(new RealConnectionPool(new TaskRunner(new LazyBackend()), maxIdle, keepAlive, unit));
    }

    /** OkHttp's own backend, except that a task scheduled earlier does not wake the waiting coordinator. */
    static final class LazyBackend implements TaskRunner.Backend {
        private final TaskRunner.RealBackend real = new TaskRunner.RealBackend(r -> {
            Thread t = new Thread(r, "skillopt-http-pool");
            t.setDaemon(true);
            return t;
        });

        @Override public void beforeTask(TaskRunner runner) { real.beforeTask(runner); }

        @Override public long nanoTime() { return real.nanoTime(); }

        // the coordinator finds the earlier task on its next wake-up, at most MAX_WAIT_NANOS from now
        @Override public void coordinatorNotify(TaskRunner runner) { }

        @Override public void coordinatorWait(TaskRunner runner, long nanos) {
            try {
                real.coordinatorWait(runner, Math.min(nanos, MAX_WAIT_NANOS));
            } catch (InterruptedException e) {
                runner.cancelAll(); // what OkHttp's coordinator does when its wait is interrupted (it holds runner's lock here)
            }
        }

        @Override public void execute(Runnable runnable) { real.execute(runnable); }
    }
}
