package io.skillopt4j.env;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Thread-safe. The {@link ItemTrace}s of the items rolled out inside {@link #collect}; their rollouts return before the
 * files are written, so the caller waits with {@link #awaitWritten()} before it needs them on disk.
 */
public final class ItemTraces {
    private static final ThreadLocal<ItemTraces> CURRENT = new ThreadLocal<>();
    private final Map<String, ItemTrace> byId = new ConcurrentHashMap<>();
    private final List<CompletableFuture<Void>> writes = new CopyOnWriteArrayList<>();

    /** Runs {@code work} with the rollouts it runs on this thread collected into {@code into}. */
    public static <T> T collect(ItemTraces into, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, into, work);
    }

    /** Takes this thread's collector (null: none), so a rollout nested in this one writes its files before returning. */
    static ItemTraces take() {
        ItemTraces t = CURRENT.get();
        CURRENT.remove();
        return t;
    }

    void put(String id, ItemTrace t) { byId.put(id, t); }

    /** Hands over a rollout's writes in progress: {@code done} completes when they are on disk, or fails as they did. */
    void writing(CompletableFuture<Void> done) { writes.add(done); }

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
