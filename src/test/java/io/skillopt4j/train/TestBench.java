package io.skillopt4j.train;

import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread-safe. A tiny deterministic benchmark for trainer tests: each item needs one keyword rule; the
 * "target" passes an item iff the skill contains {@code RULE:<keyword>}. Rollouts run on {@code workers}
 * threads, append to results.jsonl, reuse finished items and write predictions/<id>/conversation.json.
 * Its data comes from the real {@link SplitDataLoader} (CPython-identical batch plans).
 */
final class TestBench implements Benchmark {
    static final List<String> KEYWORDS = List.of("alpha", "beta", "gamma", "delta", "eps", "zeta");
    private final SplitDataLoader loader;
    private final int workers;
    private final UsageMeter meter;
    final AtomicInteger rolledOut = new AtomicInteger();

    TestBench(int trainN, int valN, int testN, int workers, UsageMeter meter) {
        this.loader = SplitDataLoader.of("testbench", items("tr", trainN, 0), items("va", valN, 1), items("te", testN, 2));
        this.workers = workers;
        this.meter = meter;
    }

    static List<Item> items(String prefix, int n, int offset) {
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> f = new LinkedHashMap<>();
            String kw = KEYWORDS.get((i + offset) % KEYWORDS.size());
            f.put("question", "Task " + prefix + i + " needs " + kw);
            f.put("keyword", kw);
            f.put("task_type", i % 2 == 0 ? "even" : "odd");
            out.add(new Item(prefix + "-" + i, f));
        }
        return out;
    }

    @Override public String name() { return "testbench"; }

    @Override public int workers() { return workers; }
    @Override public DataLoader data() { return loader; }
    @Override public List<String> taskTypes() { return List.of("even", "odd"); }

    @Override public List<RolloutResult> rollout(RolloutRequest req) {
        Path results = req.outDir().resolve("results.jsonl");
        Map<String, RolloutResult> done = new LinkedHashMap<>();
        if (Files.isRegularFile(results)) {
            try {
                for (String line : Files.readAllLines(results)) {
                    if (line.isBlank()) continue;
                    try { RolloutResult r = RolloutResult.fromJson(Json.parseObject(line)); done.put(r.id(), r); } catch (RuntimeException ignored) { }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<RolloutResult>> fs = new ArrayList<>();
            for (Item item : req.batch().items()) {
                RolloutResult prev = done.get(item.id());
                fs.add(prev != null ? java.util.concurrent.CompletableFuture.completedFuture(prev) : pool.submit(() -> one(item, req, results)));
            }
            List<RolloutResult> out = new ArrayList<>();
            for (Future<RolloutResult> f : fs) out.add(f.get());
            return out;
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt(); // Benchmark.rollout's contract
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow(); // Benchmark.rollout's contract: nothing of an interrupted rollout is written after it returns
            if (io.skillopt4j.internal.Daemons.awaitQuietly(pool)) Thread.currentThread().interrupt();
        }
    }

    private RolloutResult one(Item item, RolloutRequest req, Path results) {
        rolledOut.incrementAndGet();
        String kw = item.str("keyword");
        boolean ok = req.skill().contains("RULE:" + kw);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("task_type", item.str("task_type"));
        f.put("question", item.str("question"));
        f.put("predicted_answer", ok ? kw : "unknown");
        f.put("n_turns", 2);
        if (!ok) f.put("fail_reason", "missing-rule: " + kw);
        RolloutResult r = new RolloutResult(item.id(), ok ? 1 : 0, ok ? 1.0 : 0.25, f);
        List<Object> conv = List.of(Map.of("role", "user", "content", item.str("question")),
                Map.of("role", "assistant", "content", ok ? kw : "unknown"),
                Map.of("role", "system", "content", "gold: " + kw));
        AtomicFiles.writeJson(req.outDir().resolve("predictions").resolve(item.id()).resolve("conversation.json"), conv);
        AtomicFiles.appendLine(results, Json.line(r.toJson()));
        if (meter != null) meter.record("target", "rollout", Usage.of(10 + req.skill().length() / 10, 3), Duration.ZERO);
        return r;
    }
}
