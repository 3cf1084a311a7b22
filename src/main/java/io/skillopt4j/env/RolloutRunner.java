package io.skillopt4j.env;

import io.skillopt4j.BackendException;
import io.skillopt4j.BudgetExceeded;
import io.skillopt4j.backend.BatchScope;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Thread-safe (each {@link #run} call uses its own pool). The shared parallel rollout driver, as upstream's: results
 * in batch order, rows appended to {@code results.jsonl} (re-runs reuse them), a wall timeout as a timeout row. An
 * item whose task throws is <em>errored</em>, not wrong: its row goes to {@code errored.jsonl}, never
 * {@code results.jsonl}, so a re-run attempts it again.
 */
public final class RolloutRunner {
    /** Immutable. What a task may use: the request, the item's prediction folder and a workspace folder. */
    public record Context(RolloutRequest request, Item item, Path itemDir, Path workspace) {}

    /** Immutable. What one item produced; prompts and conversation may be empty; {@code files} are extra artifacts. */
    public record Outcome(RolloutResult result, List<?> conversation, String systemPrompt, String userPrompt,
                          Map<String, String> files) {
        public Outcome {
            Objects.requireNonNull(result, "result");
            conversation = conversation == null ? List.of() : conversation;
            systemPrompt = systemPrompt == null ? "" : systemPrompt;
            userPrompt = userPrompt == null ? "" : userPrompt;
            files = files == null ? Map.of() : files;
        }

        public static Outcome of(RolloutResult result, List<?> conversation) { return new Outcome(result, conversation, "", "", Map.of()); }
    }

    /** Runs one item; may block; should honour interruption (a timed-out item is interrupted). */
    @FunctionalInterface
    public interface ItemTask {
        Outcome run(Item item, Context ctx) throws Exception;
    }

    /** Called on the driver thread after each item settles. */
    @FunctionalInterface
    public interface Progress {
        void onItem(int done, int total, RolloutResult result);
    }

    private final int workers;
    private final Duration itemTimeout;
    /** Items started at once inside a batch scope (their threads only wait on the batch). */
    static final int MAX_BATCH_THREADS = 512;
    private final Progress progress;
    private final boolean abortWhenAllFail;
    private final String defaultTaskType;

    private RolloutRunner(Builder b) {
        this.workers = Math.max(1, b.workers);
        this.itemTimeout = b.itemTimeout;
        this.progress = b.progress;
        this.abortWhenAllFail = b.abortWhenAllFail;
        this.defaultTaskType = b.defaultTaskType;
    }

    public static Builder builder() { return new Builder(); }

    private static final java.util.regex.Pattern UNSAFE_IN_NAME = java.util.regex.Pattern.compile("[/\\\\\\x00-\\x1F]");

    /** Returns a filesystem-safe folder name for an item id. */
    public static String safeId(String id) {
        String s = UNSAFE_IN_NAME.matcher(id).replaceAll("_");
        return s.isEmpty() || s.equals(".") || s.equals("..") ? "_" + s : s;
    }

    /** The file errored rows go to, next to results.jsonl (a SkillOpt4J addition; never read back as results). */
    public static final String ERRORED_FILE = "errored.jsonl";

    /** Finished rows by id (last wins), torn lines and errored rows skipped; of {@code errored.jsonl}: its rows. */
    public static Map<String, RolloutResult> readResults(Path file) {
        boolean erroredFile = file.getFileName() != null && file.getFileName().toString().equals(ERRORED_FILE);
        Map<String, RolloutResult> out = new LinkedHashMap<>();
        for (RolloutResult r : readRows(file)) if (erroredFile || !isErroredRow(r)) out.put(r.id(), r);
        return out;
    }

    /** True for an errored row, or an error row an older version stored as finished ({@code phase: "error"}). */
    static boolean isErroredRow(RolloutResult r) {
        return r.isErrored() || "error".equals(r.str("phase"));
    }

    private static List<RolloutResult> readRows(Path file) {
        List<RolloutResult> out = new ArrayList<>();
        List<Map<String, Object>> lines;
        try {
            lines = Json.readObjectLines(file); // a line cut by a kill mid-append is skipped: that item simply runs again
        } catch (UncheckedIOException unreadable) {
            return out;
        }
        for (Map<String, Object> line : lines) {
            try {
                RolloutResult r = RolloutResult.fromJson(line);
                if (!r.id().isEmpty()) out.add(r);
            } catch (IllegalArgumentException malformed) {
                // a row of the wrong shape counts as not done: that item runs again
            }
        }
        return out;
    }

    /** Rolls out the request's batch with {@code task}; returns one result per item, in batch order. */
    public List<RolloutResult> run(RolloutRequest request, ItemTask task) {
        List<Item> items = request.batch().items();
        Path out = request.outDir();
        Path resultsFile = out.resolve("results.jsonl");
        Path erroredFile = out.resolve(ERRORED_FILE);
        Map<String, RolloutResult> done = readResults(resultsFile);
        RolloutResult[] results = new RolloutResult[items.size()];
        List<Integer> todo = new ArrayList<>();
        Consumer<RolloutResult> observer = ItemObserver.current();
        ItemTraces traces = ItemTraces.take();
        for (int i = 0; i < items.size(); i++) {
            RolloutResult prev = done.get(items.get(i).id());
            if (prev != null) results[i] = prev; else todo.add(i);
            if (prev != null && observer != null) observer.accept(prev);
        }
        try {
            Files.createDirectories(out);
            terminateTornLine(resultsFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create rollout folder " + out + ": " + e.getMessage(), e);
        }
        AtomicInteger settledCount = new AtomicInteger(items.size() - todo.size());
        if (!todo.isEmpty() && request.remote() != null) runRemote(request, todo, results, settledCount, observer);
        // in a batch scope every item queues its call at once, and waits as long as the provider's batch takes
        boolean batched = BatchScope.active();
        Duration wallLimit = batched ? null : itemTimeout;
        if (!todo.isEmpty() && request.remote() == null
                && !SingleItemRollout.runCaptured(request, todo, results, task, wallLimit, this::cutOffRow, this::errored)) {
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(batched ? MAX_BATCH_THREADS : workers, todo.size()),
                    io.skillopt4j.internal.Daemons.named("rollout-worker"));
            ItemWriter writer = new ItemWriter();
            boolean handOver = false;
            LinkedBlockingQueue<Integer> finished = new LinkedBlockingQueue<>();
            java.util.concurrent.atomic.AtomicReference<BudgetExceeded> budgetStop = new java.util.concurrent.atomic.AtomicReference<>();
            AtomicInteger erroredCount = new AtomicInteger();
            java.util.concurrent.atomic.AtomicReference<RolloutResult> halt = new java.util.concurrent.atomic.AtomicReference<>();
            Consumer<RolloutResult> countErrored = r -> { // past the request's limit the stage stops: no further item starts
                if (r.isErrored() && request.erroredLimit() >= 0 && erroredCount.incrementAndGet() > request.erroredLimit()) halt.compareAndSet(null, r);
            };
            Map<Integer, Future<?>> futures = new HashMap<>();
            AtomicLong[] started = new AtomicLong[items.size()];
            io.skillopt4j.backend.CallDeadline[] deadlines = new io.skillopt4j.backend.CallDeadline[items.size()];
            Object lock = new Object();
            boolean[] stopping = {false}; // guarded by lock
            java.util.concurrent.atomic.AtomicReference<Throwable> crashed = new java.util.concurrent.atomic.AtomicReference<>();
            try {
                for (int idx : todo) {
                    started[idx] = new AtomicLong(0);
                    futures.put(idx, pool.submit(() -> {
                        try {
                            if (halt.get() != null) return; // the stage stops anyway: this item is left for the resumed run
                            started[idx].set(System.nanoTime());
                            Item item = items.get(idx);
                            Path itemDir = out.resolve("predictions").resolve(safeId(item.id()));
                            Path ws = out.resolve("workspaces").resolve(safeId(item.id()));
                            RolloutResult r;
                            Outcome o = null;
                            try {
                                // calls journaled under the item's folder give up before its wall limit: a hang errors the item
                                io.skillopt4j.backend.CallDeadline d = wallLimit == null ? null : io.skillopt4j.backend.CallDeadline.in(wallLimit);
                                deadlines[idx] = d;
                                Callable<Outcome> work = () -> task.run(item, new Context(request, item, itemDir, ws));
                                o = io.skillopt4j.backend.UsageMeter.keyed(itemDir.toAbsolutePath().normalize().toString(), d == null ? work : () -> d.run(work));
                                r = withFailReason(o.result());
                            } catch (BudgetExceeded b) {
                                budgetStop.compareAndSet(null, b); // no row: the item runs again when the folder resumes
                                return;
                            } catch (Throwable t) {
                                synchronized (lock) { // cut off, or the stage stops: the interrupt was ours and the item has no row
                                    if (stopping[0] || results[idx] != null) return;
                                }
                                // an errored item, even one whose task left its interrupt flag set (as a library may after
                                // its own timeout): cleared, so the item's files can still be written
                                Thread.interrupted();
                                r = errored(item, t);
                            }
                            synchronized (lock) { // cut off or stopped meanwhile (the flag cleared above may have been ours)
                                if (stopping[0] || results[idx] != null) return;
                                results[idx] = r;
                            }
                            ItemTrace trace = o == null ? null : new ItemTrace(o);
                            if (trace != null && traces != null) traces.put(item.id(), trace);
                            writer.item(itemDir, trace, r.isErrored() ? erroredFile : resultsFile, r);
                            countErrored.accept(r);
                        } catch (Throwable t) {
                            crashed.compareAndSet(null, t); // after its row was decided: the stage fails with it below
                        } finally {
                            finished.add(idx); // every item reports, whatever became of it, so the wait below ends
                        }
                    }));
                }
                writer.start(); // while the first items' calls are in flight
                int remaining = todo.size();
                boolean[] counted = new boolean[items.size()]; // a cut-off item reports again when its thread ends
                while (remaining > 0) {
                    Integer idx = finished.poll(200, TimeUnit.MILLISECONDS);
                    if (idx != null) {
                        if (counted[idx]) continue;
                        counted[idx] = true;
                        remaining--;
                        if (results[idx] != null) report(settledCount.incrementAndGet(), items.size(), results[idx], observer);
                        continue;
                    }
                    if (wallLimit == null) continue;
                    long now = System.nanoTime();
                    for (int i : todo) {
                        long s = started[i].get();
                        if (s == 0 || counted[i] || now - s < itemTimeout.toNanos()) continue; // counted: ended without a row
                        RolloutResult timeout;
                        synchronized (lock) {
                            if (results[i] != null) continue;
                            timeout = cutOffRow(items.get(i), deadlines[i]);
                            results[i] = timeout;
                        }
                        RolloutResult row = timeout;
                        writer.write(() -> AtomicFiles.appendLine(row.isErrored() ? erroredFile : resultsFile, Json.line(row.toJson())));
                        countErrored.accept(row);
                        futures.get(i).cancel(true);
                        counted[i] = true;
                        remaining--;
                        report(settledCount.incrementAndGet(), items.size(), timeout, observer);
                    }
                }
                handOver = traces != null && budgetStop.get() == null && halt.get() == null && crashed.get() == null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("rollout interrupted", e);
            } finally {
                boolean interrupted = Thread.interrupted(); // its items stop, then none of their writes may follow the return
                synchronized (lock) {
                    stopping[0] = true;
                }
                pool.shutdownNow();
                if (interrupted) io.skillopt4j.internal.Daemons.awaitQuietly(pool);
                if (handOver) writer.handOver(traces); else writer.drain(); // a collector waits for the files itself
                if (interrupted) Thread.currentThread().interrupt();
            }
            if (!handOver) writer.rethrow();
            if (crashed.get() instanceof Error e) throw e;
            if (crashed.get() != null) throw new IllegalStateException("a rollout worker failed after its item settled", crashed.get());
            if (budgetStop.get() != null) throw budgetStop.get();
            if (halt.get() != null) throw io.skillopt4j.ErroredHalt.rollout(erroredCount.get(), items.size(),
                    (int) todo.stream().filter(i -> started[i].get() == 0).count(), halt.get().failReason(), erroredFile);
        }
        List<RolloutResult> list = List.of(results);
        // errored rows are the caller's to judge (train.max_errored_fraction); this catches scored rows that all failed
        List<RolloutResult> scored = list.stream().filter(r -> !r.isErrored()).toList();
        if (abortWhenAllFail && !scored.isEmpty() && scored.stream().allMatch(r -> Boolean.FALSE.equals(r.fields().get("agent_ok")))) {
            String first = scored.get(0).failReason();
            throw new BackendException("target", 0, "every rollout item failed at the agent level (systemic backend failure?); first: "
                    + first + " (see " + resultsFile + ")", null);
        }
        return list;
    }

    /** Runs the missing items on the request's engine workers; rows and files are written here, in one writer. */
    private void runRemote(RolloutRequest request, List<Integer> todo, RolloutResult[] results, AtomicInteger settled,
                           Consumer<RolloutResult> observer) {
        List<Item> items = request.batch().items();
        Path out = request.outDir();
        Object lock = new Object();
        request.remote().run(request, todo.stream().map(items::get).toList(), (k, row, artefacts) -> {
            int idx = todo.get(k);
            synchronized (lock) {
                if (results[idx] != null) return; // an engine that delivers twice must not duplicate a row
                if (artefacts != null) ItemWriter.writeArtifacts(out.resolve("predictions").resolve(safeId(items.get(idx).id())), new ItemTrace(artefacts));
                AtomicFiles.appendLine(out.resolve(row.isErrored() ? ERRORED_FILE : "results.jsonl"), Json.line(row.toJson()));
                results[idx] = row;
                report(settled.incrementAndGet(), items.size(), row, observer);
            }
        });
        for (int idx : todo) {
            if (results[idx] == null) throw new IllegalStateException("engine returned no row for item " + items.get(idx).id());
        }
    }

    /** Cuts a half line a kill left, so no unparseable line stays for readers that parse every line (SkillOpt's). */
    private static void terminateTornLine(Path file) throws IOException {
        if (!Files.isRegularFile(file) || Files.size(file) == 0) return;
        try {
            AtomicFiles.cutTornTail(file);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private void report(int doneCount, int total, RolloutResult r, Consumer<RolloutResult> observer) {
        try {
            if (observer != null) observer.accept(r);
            if (progress != null) progress.onItem(doneCount, total, r);
        } catch (RuntimeException ignored) {
            // a failing progress bar or observer must not fail the rollout
        }
    }

    /** A success gets upstream's {@code fail_reason: ""}; a failure without one stays so (upstream: "unknown"). */
    static RolloutResult withFailReason(RolloutResult r) {
        if (r.isFailure() || r.fields().containsKey("fail_reason")) return r;
        return new RolloutResult(r.id(), r.hard(), r.soft(), Json.put(new LinkedHashMap<>(r.fields()), "fail_reason", ""));
    }

    /** An item cut off by its wall limit: errored while a call waited on the provider (CallDeadline), else upstream's timeout row. */
    private RolloutResult cutOffRow(Item item, io.skillopt4j.backend.CallDeadline d) {
        if (d == null || !d.waitingOnProvider()) return failure(item, "task-timeout-" + itemTimeout.toSeconds() + "s", "timeout");
        return errored(item, new BackendException("target", 0, "the item's time limit (" + itemTimeout.toSeconds()
                + " s) ran out while a failed model call was being retried or waited for a slot", null));
    }

    private RolloutResult failure(Item item, String reason, String phase) {
        Map<String, Object> f = Json.obj("fail_reason", reason, "phase", phase, "agent_ok", false);
        String tt = item.str("task_type");
        if (tt.isEmpty()) tt = item.str("category");
        if (tt.isEmpty()) tt = defaultTaskType;
        if (!tt.isEmpty()) f.put("task_type", tt);
        f.put("n_turns", 0);
        return new RolloutResult(item.id(), 0, 0, f);
    }

    /** The row of an item whose task threw; its hard/soft of 0 are never scored (callers drop errored rows). */
    private RolloutResult errored(Item item, Throwable t) {
        String msg = Redactor.scrub(String.valueOf(t.getMessage()));
        RolloutResult f = failure(item, "errored: " + (t instanceof BackendException ? msg : t.getClass().getSimpleName() + ": " + msg), "error");
        return new RolloutResult(f.id(), 0, 0, Json.put(new LinkedHashMap<>(f.fields()), RolloutResult.ERRORED, true));
    }

    /** Not thread-safe; use once. */
    public static final class Builder {
        private int workers = 4;
        private Duration itemTimeout;
        private Progress progress;
        private boolean abortWhenAllFail = true;
        private String defaultTaskType = "";

        public Builder workers(int n) { this.workers = n; return this; }
        /** Per-item wall timeout; null = none. */
        public Builder itemTimeout(Duration d) { this.itemTimeout = d; return this; }
        public Builder progress(Progress p) { this.progress = p; return this; }
        /** Whether a batch where every row has {@code agent_ok=false} throws (default true). */
        public Builder abortWhenAllFail(boolean b) { this.abortWhenAllFail = b; return this; }
        /** Task type given to synthetic timeout/error rows when the item has none. */
        public Builder defaultTaskType(String t) { this.defaultTaskType = t == null ? "" : t; return this; }

        public RolloutRunner build() { return new RolloutRunner(this); }
    }
}
