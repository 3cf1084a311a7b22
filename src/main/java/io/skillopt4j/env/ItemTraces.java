package io.skillopt4j.env;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Thread-safe. What the rollouts run inside {@link #collect} leave for a reader in the same run: each item run here
 * hands its {@link ItemTrace} over as it settles, and {@link RolloutRunner} returns without waiting for its writer —
 * the caller waits with {@link #awaitWritten()} before anything that needs the files on disk (a step's commit,
 * removing the folder). Items reused from {@code results.jsonl} or run on an engine's workers have no trace (their
 * files are already on disk).
 */
public final class ItemTraces {
    private static final ThreadLocal<ItemTraces> CURRENT = new ThreadLocal<>();
    private final Map<String, ItemTrace> byId = new ConcurrentHashMap<>();
    private final List<CompletableFuture<Void>> writes = new CopyOnWriteArrayList<>();

    /** An empty collector: nothing collected, nothing being written. */
    public ItemTraces() {}

    /** Runs {@code work} with the rollouts it runs on this thread collected into {@code into}. */
    public static <T> T collect(ItemTraces into, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, into, work);
    }

    /**
     * Takes this thread's collector (null when none) for one rollout run: a rollout nested in it on the same thread (an
     * engine running single items in scratch folders) writes its files before returning, as without a collector.
     */
    static ItemTraces take() {
        ItemTraces t = CURRENT.get();
        CURRENT.remove();
        return t;
    }

    void put(String id, ItemTrace t) { byId.put(id, t); }

    /** Hands over a rollout's writes still in progress: the future completes when they are on disk, or fails as they did. */
    void writing(CompletableFuture<Void> done) { writes.add(done); }

    /** The trace of item {@code id} run here, or null. */
    public ItemTrace get(String id) { return byId.get(id); }

    /** Completes when every file of the collected rollouts so far is written, or fails as the first failed write. */
    public CompletableFuture<Void> written() { return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)); }

    /** Waits until every file of the collected rollouts is written; rethrows the first write failure. */
    public void awaitWritten() {
        for (CompletableFuture<Void> f : writes) {
            try {
                f.join();
            } catch (java.util.concurrent.CompletionException e) {
                if (e.getCause() instanceof RuntimeException re) throw re;
                throw e;
            }
        }
    }

    /** As {@link #awaitWritten()}, ignoring write failures: on a path that already fails. */
    public void awaitWrittenQuietly() {
        for (CompletableFuture<Void> f : writes) f.handle((x, e) -> null).join();
    }
}
