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
 * Thread-safe; one per rollout run. Writes each item's files and then its row behind the workers, on one thread and
 * in the order given (a row in {@code results.jsonl} always has its files), so a worker goes straight on to its next
 * call. The first write failure is kept for {@link #rethrow} or goes through {@link #handOver}.
 */
final class ItemWriter {
    // a single-thread executor whose thread can be started ahead (see start)
    private final ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "rollout-writer");
        t.setDaemon(true);
        return t;
    });

    /**
     * Starts the writer's thread now, from the caller, instead of inside the first item's {@link #item} call: starting
     * a thread costs a cold JVM 1-3 ms, which would otherwise fall between the first item's reply and the next call.
     */
    void start() { thread.prestartCoreThread(); }
    private final AtomicReference<RuntimeException> error = new AtomicReference<>();

    /** Queues an item's files (none when {@code trace} is null) and then its row. */
    void item(Path itemDir, ItemTrace trace, Path rowFile, RolloutResult row) {
        write(() -> {
            if (trace != null) writeArtifacts(itemDir, trace);
            AtomicFiles.appendLine(rowFile, Json.line(row.toJson()));
        });
    }

    /** Queues one write. */
    void write(Runnable write) {
        thread.execute(() -> {
            try {
                write.run();
            } catch (RuntimeException e) {
                error.compareAndSet(null, e);
            }
        });
    }

    /** Waits until every queued write is done (when interrupted it returns at once: the daemon writer finishes alone). */
    void drain() {
        thread.shutdown();
        try {
            while (!thread.awaitTermination(1, TimeUnit.MINUTES)) { /* keep waiting: the caller reads these files next */ }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Rethrows the first write failure, if any. */
    void rethrow() {
        if (error.get() != null) throw error.get();
    }

    /** Lets the queued writes finish behind the caller: {@code traces} waits for them (and sees their failure). */
    void handOver(ItemTraces traces) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        thread.execute(() -> {
            if (error.get() != null) done.completeExceptionally(error.get()); else done.complete(null);
        });
        thread.shutdown();
        traces.writing(done);
    }

    /** Writes an item's files: conversation, target prompts (when not empty), then the benchmark's extra files. */
    static void writeArtifacts(Path itemDir, ItemTrace trace) {
        RolloutRunner.Outcome o = trace.outcome();
        // per-item files are re-derivable by re-running the item, so no fsync (it costs ~10 ms a file here)
        AtomicFiles.writeRecomputable(itemDir.resolve(ItemTrace.CONVERSATION), trace.conversationJson());
        if (!o.systemPrompt().isEmpty()) AtomicFiles.writeRecomputable(itemDir.resolve(ItemTrace.SYSTEM_PROMPT), o.systemPrompt());
        if (!o.userPrompt().isEmpty()) AtomicFiles.writeRecomputable(itemDir.resolve(ItemTrace.USER_PROMPT), o.userPrompt());
        o.files().forEach((name, text) -> AtomicFiles.writeRecomputable(itemDir.resolve(name), text));
    }
}
