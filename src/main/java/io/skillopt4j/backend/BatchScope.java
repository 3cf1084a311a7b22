package io.skillopt4j.backend;

import io.skillopt4j.backend.internal.BatchTransport;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Hashes;
import io.skillopt4j.internal.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Thread-safe. Work nobody waits on, sent through the providers' Batch APIs: inside {@link #run}, calls of a backend
 * with batch support are queued, go up together as one batch, and each calling thread waits for its own result; a
 * request the batch did not answer is made as a normal call. Each batch is recorded in {@code <dir>/batch_api.json}
 * when submitted, so a re-run in the same folder re-attaches to it instead of submitting its calls again.
 *
 * <pre>{@code
 * List<RolloutResult> rs = BatchScope.run(dir, Duration.ofSeconds(30), () -> benchmark.rollout(request));
 * }</pre>
 */
public final class BatchScope {
    /** Quiet time after the last queued call before a batch is submitted. */
    static final Duration LINGER = Duration.ofMillis(150);
    /** OpenAI takes 50,000 lines per file, Anthropic 100,000 requests. */
    static final int MAX_REQUESTS = 50_000;
    private static final InheritableThreadLocal<BatchScope> CURRENT = new InheritableThreadLocal<>();

    private final Path stateFile;
    private final Duration poll;
    private final Map<Object, Collector> collectors = new ConcurrentHashMap<>();

    private BatchScope(Path dir, Duration poll) {
        this.stateFile = dir.resolve("batch_api.json");
        this.poll = poll;
    }

    /** Runs {@code work} with batchable calls (on this thread and threads it starts) sent as batches. */
    public static <T> T run(Path dir, Duration poll, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, new BatchScope(dir, poll), work);
    }

    /** True inside {@link #run}: the rollout driver then starts every item at once and drops item timeouts. */
    public static boolean active() { return CURRENT.get() != null; }

    static BatchScope current() { return CURRENT.get(); }

    /** Sends {@code r} in a batch of {@code owner}'s calls and waits; null = not answered, make it as a normal call. */
    ChatResponse call(Object owner, BatchSupport s, ChatRequest r) {
        Map<String, Object> body = s.body().apply(r);
        String id = "so-" + Hashes.sha256Hex(s.transport().provider() + "\u0000" + Json.compact(body)).substring(0, 48);
        CompletableFuture<BatchTransport.Result> f = collectors.computeIfAbsent(owner, k -> new Collector(s.transport())).add(id, body);
        BatchTransport.Result res;
        try {
            res = f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.skillopt4j.BackendException.NonRetriable("batch", 0, "interrupted while waiting for a batch", e);
        } catch (ExecutionException e) {
            return null;
        }
        if (res == null || !res.ok()) return null;
        return s.parse().apply(res.body()).withBilling(Billing.BATCH);
    }

    /** Guarded by its own lock. Queues one backend's calls and submits them in groups. */
    private final class Collector {
        private final BatchTransport transport;
        private final Map<String, Map<String, Object>> pending = new LinkedHashMap<>();
        private final Map<String, List<CompletableFuture<BatchTransport.Result>>> waiters = new LinkedHashMap<>();
        private long lastAdd;
        private boolean flushing;

        Collector(BatchTransport transport) { this.transport = transport; }

        synchronized CompletableFuture<BatchTransport.Result> add(String id, Map<String, Object> body) {
            CompletableFuture<BatchTransport.Result> f = new CompletableFuture<>();
            List<CompletableFuture<BatchTransport.Result>> ws = waiters.computeIfAbsent(id, k -> new ArrayList<>());
            ws.add(f);
            if (ws.size() == 1) pending.put(id, body); // an identical request already queued or in flight shares its answer
            lastAdd = System.nanoTime();
            if (!flushing) {
                flushing = true;
                io.skillopt4j.internal.Daemons.start("skillopt-batch", this::flushWhenQuiet);
            }
            return f;
        }

        private void flushWhenQuiet() {
            Map<String, Map<String, Object>> group;
            synchronized (this) {
                while (true) {
                    long quiet = System.nanoTime() - lastAdd;
                    if (quiet >= LINGER.toNanos() || pending.size() >= MAX_REQUESTS) break;
                    try {
                        wait(Math.max(1, (LINGER.toNanos() - quiet) / 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                group = new LinkedHashMap<>(pending);
                pending.clear();
                flushing = false;
            }
            if (!group.isEmpty()) runGroup(group);
        }

        private void runGroup(Map<String, Map<String, Object>> group) {
            Map<String, BatchTransport.Result> answers = new LinkedHashMap<>();
            try {
                Map<String, List<String>> batches = attachOrSubmit(group);
                for (Map.Entry<String, List<String>> b : batches.entrySet()) {
                    BatchTransport.Status st = transport.poll(b.getKey());
                    while (!st.done()) {
                        io.skillopt4j.backend.Backoff.sleep(poll);
                        st = transport.poll(b.getKey());
                    }
                    record(transport.provider(), b.getKey(), null, st.state());
                    Map<String, BatchTransport.Result> rs = transport.results(st);
                    for (String id : b.getValue()) {
                        BatchTransport.Result r = rs.get(id);
                        answers.put(id, r != null ? r : new BatchTransport.Result(null, "no result (batch " + st.state() + ")"));
                    }
                }
            } catch (RuntimeException e) {
                // a batch that cannot be submitted or read: its calls are made one by one instead
                System.getLogger(BatchScope.class.getName()).log(System.Logger.Level.INFO, "batch failed, calling directly: " + e.getMessage());
            }
            synchronized (this) {
                for (String id : group.keySet()) {
                    BatchTransport.Result r = answers.getOrDefault(id, new BatchTransport.Result(null, "batch failed"));
                    List<CompletableFuture<BatchTransport.Result>> ws = waiters.remove(id);
                    if (ws != null) for (CompletableFuture<BatchTransport.Result> w : ws) w.complete(r);
                }
            }
        }

        /** Batch id → the group's custom ids it answers: recorded batches first, one new batch for the rest. */
        private Map<String, List<String>> attachOrSubmit(Map<String, Map<String, Object>> group) {
            Map<String, List<String>> out = new LinkedHashMap<>();
            Map<String, String> known = recordedIds(transport.provider());
            List<Map.Entry<String, Map<String, Object>>> fresh = new ArrayList<>();
            for (Map.Entry<String, Map<String, Object>> e : group.entrySet()) {
                String batch = known.get(e.getKey());
                if (batch != null) out.computeIfAbsent(batch, k -> new ArrayList<>()).add(e.getKey());
                else fresh.add(e);
            }
            if (!fresh.isEmpty()) {
                String id = transport.submit(fresh);
                List<String> ids = fresh.stream().map(Map.Entry::getKey).toList();
                record(transport.provider(), id, ids, "submitted");
                out.put(id, new ArrayList<>(ids));
            }
            return out;
        }
    }

    /** Custom id → batch id of every batch recorded in this folder for {@code provider}. */
    private synchronized Map<String, String> recordedIds(String provider) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map<String, Object> b : readState()) {
            if (!provider.equals(b.get("provider")) || !(b.get("custom_ids") instanceof List<?> ids)) continue;
            for (Object id : ids) out.put(String.valueOf(id), String.valueOf(b.get("id")));
        }
        return out;
    }

    /** Records a new batch ({@code ids} non-null) or a recorded batch's new status. */
    private synchronized void record(String provider, String batchId, List<String> ids, String status) {
        List<Map<String, Object>> all = readState();
        Map<String, Object> entry = all.stream().filter(b -> batchId.equals(b.get("id"))).findFirst().orElse(null);
        if (entry == null) {
            entry = Json.obj("id", batchId, "provider", provider, "submitted_at", Instant.now().toString());
            all.add(entry);
        }
        entry.put("status", status);
        if (ids != null) entry.put("custom_ids", ids);
        AtomicFiles.writeJson(stateFile, Map.of("batches", all));
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> readState() {
        List<Map<String, Object>> out = new ArrayList<>();
        if (!Files.isRegularFile(stateFile)) return out;
        try {
            Object o = Json.read(stateFile);
            if (o instanceof Map<?, ?> m && m.get("batches") instanceof List<?> l)
                for (Object b : l) if (b instanceof Map<?, ?> bm) out.add(new LinkedHashMap<>((Map<String, Object>) bm));
        } catch (RuntimeException unreadable) {
            // an unreadable state file only costs re-submitting: start afresh
        }
        return out;
    }
}
