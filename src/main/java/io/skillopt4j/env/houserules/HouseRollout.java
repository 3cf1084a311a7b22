package io.skillopt4j.env.houserules;

import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Thread-safe. Runs a batch of single-call tasks in parallel and writes upstream's rollout folder:
 * {@code results.jsonl} (appended per finished item; items already there are reused on resume),
 * {@code predictions/<id>/conversation.json}, {@code target_system_prompt.txt}, {@code target_user_prompt.txt}.
 * A task whose call fails becomes a failure row ({@code agent_ok: false}) instead of failing the batch.
 */
final class HouseRollout {
    /** One finished task: its result, conversation and the prompts the target saw. */
    record Outcome(RolloutResult result, List<Map<String, Object>> conversation, String system, String user) {}

    interface Task { Outcome run(Item item, String skill, boolean evalFeedback); }

    private final Task task;
    private final int workers;

    HouseRollout(Task task, int workers) {
        this.task = task;
        this.workers = workers;
    }

    List<RolloutResult> run(RolloutRequest req) {
        Path out = req.outDir();
        Path results = out.resolve("results.jsonl");
        Map<String, RolloutResult> done = new HashMap<>();
        try {
            Files.createDirectories(out);
            if (Files.exists(results))
                for (String line : Files.readAllLines(results))
                    if (!line.isBlank()) {
                        try { RolloutResult r = RolloutResult.fromJson(Json.parseObject(line)); done.put(r.id(), r); }
                        catch (RuntimeException ignored) { /* a torn last line from a crash is re-run */ }
                    }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + results + ": " + e.getMessage(), e);
        }
        List<Item> items = req.batch().items();
        Map<String, Future<RolloutResult>> pending = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(workers, items.size())), r -> {
            Thread t = new Thread(r, "house-rules-rollout");
            t.setDaemon(true);
            return t;
        });
        try {
            for (Item it : items) {
                if (done.containsKey(it.id()) || pending.containsKey(it.id())) continue;
                pending.put(it.id(), pool.submit(() -> runAndWrite(it, req, out, results)));
            }
            List<RolloutResult> list = new ArrayList<>();
            for (Item it : items) {
                RolloutResult r = done.get(it.id());
                if (r == null) r = pending.get(it.id()).get();
                list.add(r);
            }
            return list;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("rollout interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private RolloutResult runAndWrite(Item it, RolloutRequest req, Path out, Path results) {
        Outcome o;
        try {
            o = task.run(it, req.skill(), req.evalFeedback());
        } catch (RuntimeException e) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("task_type", it.taskType());
            f.put("question", it.str("question"));
            f.put("predicted_answer", "");
            f.put("fail_reason", "unexpected: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            f.put("agent_ok", false);
            f.put("phase", "error");
            f.put("n_turns", 0);
            o = new Outcome(new RolloutResult(it.id(), 0, 0, f), List.of(), "", it.str("question"));
        }
        Path dir = out.resolve("predictions").resolve(safeId(it.id()));
        if (!o.conversation().isEmpty()) AtomicFiles.writeJson(dir.resolve("conversation.json"), o.conversation());
        if (!o.system().isEmpty()) AtomicFiles.writeString(dir.resolve("target_system_prompt.txt"), o.system());
        AtomicFiles.writeString(dir.resolve("target_user_prompt.txt"), o.user());
        AtomicFiles.appendLine(results, Json.line(o.result().toJson()));
        return o.result();
    }

    static String safeId(String id) {
        String s = id.replaceAll("[^A-Za-z0-9_.-]+", "_").replaceAll("^_+|_+$", "");
        if (s.length() > 80) s = s.substring(0, 80);
        return s.isEmpty() ? "item" : s;
    }
}
