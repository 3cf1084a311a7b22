package io.skillopt4j.env;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Thread-safe; one per rollout run. Writes each item's files, then its row, on one thread behind the workers, so a row
 * always has its files; inside {@link #runScoped} all rollouts share the run's writer thread.
 */
public final class ItemWriter {
    private static final InheritableThreadLocal<ThreadPoolExecutor> RUN = new InheritableThreadLocal<>();
    private static final InheritableThreadLocal<ThreadPoolExecutor> SIDE = new InheritableThreadLocal<>();
    private final ThreadPoolExecutor thread;
    private final boolean own;
    private final AtomicReference<RuntimeException> error = new AtomicReference<>();
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null); // guarded by this

    ItemWriter() {
        ThreadPoolExecutor shared = RUN.get();
        this.own = shared == null || shared.isShutdown();
        this.thread = own ? newThread("rollout-writer") : shared;
    }

    // a single-thread executor whose thread can be started ahead (see start)
    private static ThreadPoolExecutor newThread(String name) {
        return new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), io.skillopt4j.internal.Daemons.named(name));
    }

    /** Runs {@code work} with one writer thread for all its rollouts; returns once their files are written. */
    public static <T> T runScoped(java.util.function.Supplier<T> work) {
        ThreadPoolExecutor t = newThread("rollout-writer");
        ThreadPoolExecutor side = newThread("artefact-writer");
        try {
            return io.skillopt4j.internal.ThreadScopes.with(SIDE, side, () -> io.skillopt4j.internal.ThreadScopes.with(RUN, t, work));
        } finally {
            finish(t);
            finish(side);
        }
    }

    /** Stops {@code t} once its queue is written out (when interrupted it returns at once: the daemon thread ends alone). */
    private static void finish(ThreadPoolExecutor t) {
        t.shutdown();
        try {
            while (!t.awaitTermination(1, TimeUnit.MINUTES)) { /* keep waiting: the caller reads these files next */ }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The run's second writer (null outside {@link #runScoped}), so a step's artefacts do not queue behind items. */
    public static java.util.concurrent.Executor sideThread() {
        ThreadPoolExecutor t = SIDE.get();
        return t == null || t.isShutdown() ? null : t;
    }

    /** Starts the writer's thread now, not between the first item's reply and its next call. */
    void start() { thread.prestartCoreThread(); }

    /** Queues an item's files (none when {@code trace} is null) and then its row. */
    void item(Path itemDir, ItemTrace trace, Path rowFile, RolloutResult row) {
        write(() -> {
            if (trace != null) writeArtifacts(itemDir, trace);
            AtomicFiles.appendLine(rowFile, Json.line(row.toJson()));
        });
    }

    /** Queues one write (from any thread: the lock keeps {@code last} the last one queued). */
    void write(Runnable write) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (this) {
            thread.execute(() -> {
                try {
                    write.run();
                } catch (RuntimeException e) {
                    error.compareAndSet(null, e);
                } finally {
                    done.complete(null);
                }
            });
            last = done; // only once queued: a write refused after drain() leaves nothing to wait for
        }
    }

    /** Waits until every queued write is done (when interrupted it returns at once: the daemon writer finishes alone). */
    void drain() {
        if (own) {
            finish(thread);
            return;
        }
        try {
            lastWrite().get(); // the shared thread runs writes in order: this rollout's last one ends its writes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private synchronized CompletableFuture<Void> lastWrite() { return last; }

    void rethrow() {
        if (error.get() != null) throw error.get();
    }

    /** Lets the queued writes finish behind the caller: {@code traces} waits for them (and sees their failure). */
    void handOver(ItemTraces traces) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        lastWrite().whenComplete((x, e) -> {
            if (error.get() != null) done.completeExceptionally(error.get()); else done.complete(null);
        });
        if (own) thread.shutdown();
        traces.writing(done);
    }

    /** Writes an item's files: conversation, target prompts (when not empty), then the benchmark's extra files. */
    static void writeArtifacts(Path itemDir, ItemTrace trace) {
        RolloutRunner.Outcome o = trace.outcome();
        // per-item files are re-derivable by re-running the item, so they skip the fsync a run file pays for
        AtomicFiles.writeRecomputable(itemDir.resolve(ItemTrace.CONVERSATION), trace.conversationJson());
        if (!o.systemPrompt().isEmpty()) AtomicFiles.writeRecomputable(itemDir.resolve(ItemTrace.SYSTEM_PROMPT), o.systemPrompt());
        if (!o.userPrompt().isEmpty()) AtomicFiles.writeRecomputable(itemDir.resolve(ItemTrace.USER_PROMPT), o.userPrompt());
        o.files().forEach((name, text) -> AtomicFiles.writeRecomputable(itemDir.resolve(name), text));
    }
}
