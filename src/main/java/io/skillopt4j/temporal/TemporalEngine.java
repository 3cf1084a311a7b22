package io.skillopt4j.temporal;

import io.skillopt4j.BackendException;
import io.skillopt4j.BudgetExceeded;
import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.backend.CostReport;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RemoteItems;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Hashes;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import io.skillopt4j.train.ExecutionEngine;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.worker.WorkerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread-safe. The coordinator side of the Temporal engine for one run: every rollout and optimizer call becomes a
 * {@link StageWorkflow} whose ID derives from the run, the call and its occurrence, so a restarted coordinator
 * re-attaches to its workflows instead of calling again. Payloads name blobs in {@code engine/blobs}; calls are reserved
 * against the dollar cap before they are sent and charged to the run's ledger as their results report them.
 */
final class TemporalEngine implements ExecutionEngine {
    private static final String WORKFLOW_TYPE = "StageWorkflow";

    private final RunContext run;
    private final TemporalSettings settings;
    private final WorkflowClient client;
    private final WorkerFactory ownWorkers;
    private final Blobs blobs;
    private final String runId;
    private final String configRef;
    private final ActivityLog log;
    private final Map<String, AtomicInteger> occurrences = new ConcurrentHashMap<>();
    /** Completions still on their way of workflows whose results are in; close() waits for them. */
    private final Set<CompletableFuture<String>> closing = ConcurrentHashMap.newKeySet();
    /** The last workflows whose results were all handed over; guarded by itself. */
    private final java.util.ArrayDeque<WorkflowStub> lastHandedOver = new java.util.ArrayDeque<>();

    /** {@code ownWorkers}: the workflow worker factory to shut down on close (null when someone else hosts it). */
    TemporalEngine(RunContext run, TemporalSettings settings, WorkflowClient client, WorkerFactory ownWorkers) {
        this.run = run;
        this.settings = settings;
        this.client = client;
        this.ownWorkers = ownWorkers;
        Path dir = run.outRoot().resolve("engine");
        this.blobs = new Blobs(dir.resolve("blobs"));
        this.runId = runId(dir.resolve("run_id"));
        Map<String, Object> cfg = new LinkedHashMap<>();
        // keys stay on the machines that own them: workers read theirs from their own environment
        run.config().asMap().forEach((k, v) -> { if (!Redactor.isSecretKey(k)) cfg.put(k, v); });
        this.configRef = blobs.putJson(cfg);
        this.log = new ActivityLog(dir.resolve("activities.jsonl"));
    }

    /** Made once and kept in the run folder, so a resumed run finds its workflows again. */
    private static String runId(Path file) {
        try {
            if (Files.isRegularFile(file)) return Files.readString(file).strip();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        String id = UUID.randomUUID().toString().substring(0, 13);
        AtomicFiles.writeString(file, id + "\n");
        return id;
    }

    @Override public String name() { return "temporal"; }

    @Override
    public ChatModel optimizer(ChatModel model) {
        return new ChatModel() {
            @Override public ChatResponse chat(ChatRequest request) {
                return Codec.portable(request) ? remoteChat(model, request) : model.chat(request);
            }
            @Override public String backend() { return model.backend(); }
            @Override public String model() { return model.model(); }
        };
    }

    @Override
    public RemoteItems rolloutItems() { return this::remoteRollout; }

    private ChatResponse remoteChat(ChatModel model, ChatRequest request) {
        String ref = blobs.putJson(Codec.request(request));
        Map<String, Object> in = Json.put(input(), "request", ref);
        CostLedger ledger = run.ledger();
        // reserved before it is sent, as a local call is
        List<CostLedger.Reservation> held = new ArrayList<>(List.of(ledger == null ? new CostLedger.Reservation(0)
                : ledger.reserve("optimizer", model.model(), request)));
        if (ledger != null && ledger.cap() != null) in.put("grant_usd", held.get(0).usd());
        Map<String, Object> done;
        try {
            done = runStage(activityType(request.stage()), settings.optimizerQueue(), 24 * 3600, List.of(Json.compact(in)), ref,
                    (k, r) -> charge(held, k, r)).get(0);
        } finally {
            releaseUncharged(held);
        }
        run.usage().absorb(UsageMeter.fromJson(Codec.map(done.get("usage"))), request);
        // a worker's call did not fit its share: the run is out of budget, as a local call would find it
        if (done.get("budget_exceeded") instanceof Number w) {
            throw ledger != null ? ledger.exhaust(w.doubleValue()) : new BudgetExceeded(0, w.doubleValue(), 0);
        }
        Map<String, Object> reply = blobs.getJson(Codec.str(done.get("result")));
        if (reply.get("error") instanceof Map<?, ?> err) throw rebuild(Codec.map(err));
        return Codec.response(Codec.map(reply.get("response")));
    }

    /** Charges the calls result {@code k} reports to the run's ledger, freeing share {@code k} (then null: charged). */
    private void charge(List<CostLedger.Reservation> shares, int k, Map<String, Object> done) {
        CostLedger ledger = run.ledger();
        CostLedger.Reservation r;
        synchronized (shares) {
            r = shares.get(k);
            if (r == null) return; // delivered twice
            shares.set(k, null);
        }
        if (ledger == null) return;
        @SuppressWarnings("unchecked") List<Map<String, Object>> entries = done.get("ledger") instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
        CostReport.chargeTo(ledger, r, entries);
    }

    /** Frees the shares of calls whose results never came (the stage failed). */
    private void releaseUncharged(List<CostLedger.Reservation> shares) {
        if (run.ledger() == null) return;
        synchronized (shares) {
            for (int k = 0; k < shares.size(); k++) if (shares.get(k) != null) run.ledger().release(shares.set(k, null));
        }
    }

    /**
     * Under a dollar cap the room left is shared by the items before they are sent; an item whose call did not fit its
     * share is sent again in a smaller wave whose shares hold what it needed (the ledger stops the run when none fits).
     */
    private void remoteRollout(RolloutRequest request, List<Item> items, RemoteItems.Sink sink) {
        String skillRef = blobs.put(request.skill());
        List<Integer> pending = new ArrayList<>(java.util.stream.IntStream.range(0, items.size()).boxed().toList());
        double need = 0;
        while (!pending.isEmpty()) {
            List<CostLedger.Reservation> shares = new ArrayList<>(run.ledger() == null
                    ? java.util.Collections.nCopies(pending.size(), new CostLedger.Reservation(0)) : run.ledger().reserveShares(pending.size(), need));
            List<Integer> wave = List.copyOf(pending.subList(0, shares.size()));
            pending.subList(0, shares.size()).clear(); // the rest, joined by the wave's items that did not fit
            need = Math.max(need, rolloutWave(request, skillRef, items, wave, shares, sink, pending));
            java.util.Collections.sort(pending);
        }
    }

    /** Sends items {@code wave} under {@code shares}; adds those that did not fit to {@code stopped}, returns their most need. */
    private double rolloutWave(RolloutRequest request, String skillRef, List<Item> items, List<Integer> wave,
                               List<CostLedger.Reservation> shares, RemoteItems.Sink sink, List<Integer> stopped) {
        List<String> inputs = new ArrayList<>();
        StringBuilder identity = new StringBuilder(run.outRoot().relativize(request.outDir().toAbsolutePath().normalize()).toString())
                .append('\u0000').append(skillRef);
        boolean capped = run.ledger() != null && run.ledger().cap() != null;
        for (int i = 0; i < wave.size(); i++) {
            Item item = items.get(wave.get(i));
            Map<String, Object> in = Json.put(input(), "batch", Codec.batch(request.batch()), "item", blobs.putJson(Codec.item(item)),
                    "skill", skillRef, "eval_feedback", request.evalFeedback());
            if (capped) in.put("grant_usd", shares.get(i).usd());
            inputs.add(Json.compact(in));
            identity.append('\u0000').append(item.id());
        }
        double[] need = {0};
        try {
            // each item is written as soon as it is in, as the local engine's writer does
            runStage("rollout", settings.rolloutQueue(), 2 * 3600, inputs, identity.toString(), (k, done) -> {
                charge(shares, k, done);
                // journaled under the item's folder: a result read again after a resume counts once
                run.usage().absorbItem(UsageMeter.fromJson(Codec.map(done.get("usage"))), request.outDir().resolve("predictions")
                        .resolve(io.skillopt4j.env.RolloutRunner.safeId(items.get(wave.get(k)).id())));
                if (done.get("budget_exceeded") instanceof Number n) { // no row: sent again, or run again on resume
                    need[0] = Math.max(need[0], n.doubleValue());
                    stopped.add(wave.get(k));
                    return;
                }
                Map<String, Object> settled = blobs.getJson(Codec.str(done.get("result")));
                sink.done(wave.get(k), Codec.row(settled), Codec.outcome(settled));
            });
        } finally {
            releaseUncharged(shares);
        }
        return need[0];
    }

    private Map<String, Object> input() { return Json.obj("store", blobs.dir().toString(), "config", configRef); }

    /** Starts (or re-attaches to) one batch's workflow; {@code each} gets every result on this thread as it comes in. */
    private List<Map<String, Object>> runStage(String type, String queue, long startToCloseSeconds, List<String> inputs, String identity,
                                               BiConsumer<Integer, Map<String, Object>> each) {
        String key = type + "\u0000" + identity;
        int n = occurrences.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement();
        String id = "skillopt-" + runId + "-" + type + "-" + Hashes.sha256Hex(key).substring(0, 24) + "-" + n;
        StageSpec spec = new StageSpec(type, queue, startToCloseSeconds, settings.heartbeatSeconds(), settings.maxAttempts(), inputs);
        WorkflowOptions options = WorkflowOptions.newBuilder().setWorkflowId(id).setTaskQueue(settings.taskQueue())
                .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY)
                // the coordinator polls this queue with the same client: the start reply carries the first workflow task
                .setDisableEagerExecution(false).build();
        LinkedBlockingQueue<Object[]> arrived = new LinkedBlockingQueue<>();
        Handoff.listen(id, (k, json) -> arrived.add(new Object[] {k, json}));
        List<Map<String, Object>> got = new ArrayList<>(java.util.Collections.nCopies(inputs.size(), null));
        try {
            WorkflowStub stub = client.newUntypedWorkflowStub(WORKFLOW_TYPE, options);
            // A workflow this JVM runs hands its results over (Handoff), so no costly result poll is needed; a
            // re-attached one, or one another process runs, is polled: at once, or once none came for WATCH_AFTER_MS.
            CompletableFuture<String> closed = null;
            try {
                stub.start(spec.toJson());
            } catch (WorkflowExecutionAlreadyStarted running) {
                stub = client.newUntypedWorkflowStub(id, Optional.empty(), Optional.of(WORKFLOW_TYPE));
                closed = watch(stub, arrived);
            }
            long watchAt = System.nanoTime() + WATCH_AFTER_MS * 1_000_000L;
            int have = 0;
            while (have < got.size()) {
                Object[] x = closed != null ? arrived.take() : arrived.poll(Math.max(0, watchAt - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (x == null) {
                    closed = watch(stub, arrived);
                    continue;
                }
                if (x == CLOSED) {
                    // finished first (hosted elsewhere, or before a restart): its result has all
                    List<Object> all = Json.parseArray(closedResult(closed, id));
                    for (int k = 0; k < got.size(); k++) if (got.get(k) == null) accept(got, k, String.valueOf(all.get(k)), each);
                    break;
                }
                if (accept(got, (Integer) x[0], (String) x[1], each)) {
                    have++;
                    watchAt = System.nanoTime() + WATCH_AFTER_MS * 1_000_000L;
                }
            }
            if (closed != null && !closed.isDone()) {
                CompletableFuture<String> c = closed;
                closing.add(c);
                c.whenComplete((r, e) -> closing.remove(c));
            } else if (closed == null) {
                synchronized (lastHandedOver) {
                    if (lastHandedOver.size() == KEEP_HANDED_OVER) lastHandedOver.removeFirst();
                    lastHandedOver.addLast(stub);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for engine workflow " + id, e);
        } finally {
            Handoff.stop(id);
        }
        log.add(id, type, got);
        return got;
    }

    private static final Object[] CLOSED = new Object[0];
    /** How long a stage waits for a handed-over result before it also polls for the workflow's own result. */
    static final long WATCH_AFTER_MS = 1_000;

    /** Polls for the workflow's result; {@code arrived} gets {@link #CLOSED} when it is in. */
    private static CompletableFuture<String> watch(WorkflowStub stub, LinkedBlockingQueue<Object[]> arrived) {
        CompletableFuture<String> closed = stub.getResultAsync(String.class);
        closed.whenComplete((r, e) -> arrived.add(CLOSED));
        return closed;
    }

    /** Records result {@code k} unless it is in already; true when it was new. */
    private static boolean accept(List<Map<String, Object>> got, int k, String json, BiConsumer<Integer, Map<String, Object>> each) {
        if (k < 0 || k >= got.size() || got.get(k) != null) return false;
        got.set(k, Json.parseObject(json));
        each.accept(k, got.get(k));
        return true;
    }

    private static String closedResult(CompletableFuture<String> closed, String id) {
        try {
            return closed.join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable c = e.getCause() instanceof WorkflowFailedException f && f.getCause() != null ? f.getCause() : e.getCause();
            throw new IllegalStateException("engine workflow " + id + " failed: " + (c == null ? e.getMessage() : c.getMessage()), e);
        }
    }

    /** The stage name; anything unusual becomes "optimizer" so it never collides with rollout. */
    private static String activityType(String stage) {
        return stage == null || stage.isBlank() || stage.equals("rollout") ? "optimizer" : stage;
    }

    /** The worker's model failure, as the stage would have seen it locally. */
    private static RuntimeException rebuild(Map<String, Object> err) {
        String cls = Codec.str(err.get("class")), msg = Codec.str(err.get("message")), backend = Codec.str(err.get("backend"));
        int status = Codec.num(err.get("status"));
        if (cls.equals(BackendException.Retriable.class.getName())) return new BackendException.Retriable(backend, status, msg, null);
        if (cls.equals(BackendException.NonRetriable.class.getName())) return new BackendException.NonRetriable(backend, status, msg, null);
        if (cls.equals(BackendException.class.getName())) return new BackendException(backend, status, msg, null);
        return new IllegalStateException(cls.substring(cls.lastIndexOf('.') + 1) + " on worker: " + msg);
    }

    /** More stages than run at once: older ones completed long before close. */
    private static final int KEEP_HANDED_OVER = 64;

    @Override
    public void close() {
        synchronized (lastHandedOver) {
            for (WorkflowStub stub : lastHandedOver) closing.add(stub.getResultAsync(String.class));
            lastHandedOver.clear();
        }
        try {
            // the last stage's workflow still has to record its completion, or a real cluster keeps it open
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // a failed or slow completion is the server's to finish; the run's results are all in
        }
        if (ownWorkers != null) {
            ownWorkers.shutdownNow();
            client.getWorkflowServiceStubs().shutdownNow();
        }
    }
}
