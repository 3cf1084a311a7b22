package io.skillopt4j.temporal;

import io.skillopt4j.BackendException;
import io.skillopt4j.BudgetExceeded;
import io.skillopt4j.backend.CostReport;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.RunParts;
import io.skillopt4j.env.SingleItemRollout;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.activity.DynamicActivity;
import io.temporal.common.converter.EncodedValues;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe. The worker side of every activity: {@code rollout} runs one item in a scratch folder on this machine;
 * any other type (an optimizer stage) sends one optimizer call. Models and benchmark are built per run config from the
 * worker's own environment (keys never travel). Activities heartbeat, so a killed worker's are retried elsewhere; calls
 * are priced here under the share of the dollar cap that came with the activity ({@link CostReport}).
 */
public final class WorkerActivities implements DynamicActivity {
    /** Builds a run config's models and benchmark. */
    @FunctionalInterface
    public interface Assembly {
        RunParts build(FlatConfig config, Path workDir);
    }

    private final Assembly assembly;
    private final Path workRoot;
    private final String name;
    private final Map<String, RunParts> byConfig = new ConcurrentHashMap<>();
    private final ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor(
            io.skillopt4j.internal.Daemons.named("skillopt-heartbeat"));

    /** A worker named {@code name} (shown in the run's activity frame) with scratch folders under {@code workRoot}. */
    public WorkerActivities(String name, Path workRoot, Assembly assembly) {
        this.name = name;
        this.workRoot = workRoot.toAbsolutePath().normalize();
        this.assembly = assembly;
    }

    /** The assembly every CLI worker uses: models from this process's environment. */
    public static Assembly fromEnvironment(Map<String, String> env) {
        return (cfg, dir) -> RunParts.assemble(cfg, env, dir, null);
    }

    @Override
    public Object execute(EncodedValues args) {
        ActivityExecutionContext ctx = Activity.getExecutionContext();
        ActivityInfo info = ctx.getInfo();
        long start = System.currentTimeMillis();
        Map<String, Object> in = Json.parseObject(args.get(0, String.class));
        Blobs blobs = new Blobs(Path.of(Codec.str(in.get("store"))));
        String configRef = Codec.str(in.get("config"));
        RunParts parts = byConfig.computeIfAbsent(configRef, ref -> assembly.build(FlatConfig.of(blobs.getJson(ref)),
                workRoot.resolve("runs").resolve(ref.substring(0, 16))));
        long period = Math.max(200, info.getHeartbeatTimeout().toMillis() / 3);
        ScheduledFuture<?> beat = beats.scheduleAtFixedRate(() -> {
            try { ctx.heartbeat(null); } catch (RuntimeException ignored) { /* cancelled or timed out: the server decides */ }
        }, period, period, TimeUnit.MILLISECONDS);
        UsageMeter used = new UsageMeter();
        // absent: no cap
        CostReport cost = new CostReport(in.get("grant_usd") instanceof Number g ? g.doubleValue() : null);
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.put("result", UsageMeter.heldIn(used, () -> CostReport.during(cost, () ->
                    info.getActivityType().equals("rollout") ? rollout(parts, blobs, in, info) : chat(parts, blobs, in))));
        } catch (BudgetExceeded stop) {
            // not a failure to retry: the coordinator stops the run (the item runs again on resume)
            out.put("budget_exceeded", cost.needed() > 0 ? cost.needed() : stop.reserved());
        } finally {
            beat.cancel(false);
        }
        long queued = Math.max(0, info.getStartedTimestamp() - info.getCurrentAttemptScheduledTimestamp());
        return Json.compact(Json.put(out, "usage", used.toJson(), "ledger", cost.toJson(), "worker", name,
                "attempt", info.getAttempt(), "queue_ms", queued, "run_ms", System.currentTimeMillis() - start));
    }

    private String rollout(RunParts parts, Blobs blobs, Map<String, Object> in, ActivityInfo info) {
        Path scratch = workRoot.resolve("items").resolve(info.getWorkflowId().replaceAll("[^A-Za-z0-9._-]", "_") + "-"
                + info.getActivityId() + "-" + info.getAttempt());
        AtomicFiles.deleteTreeQuietly(scratch); // a retry on the same worker starts clean
        try {
            SingleItemRollout.Settled s = SingleItemRollout.run(parts.benchmark(), Codec.batch(Codec.map(in.get("batch"))),
                    Codec.item(blobs.getJson(Codec.str(in.get("item")))), blobs.get(Codec.str(in.get("skill"))),
                    Boolean.TRUE.equals(in.get("eval_feedback")), scratch);
            return blobs.putJson(Codec.settled(s.row(), s.artefacts()));
        } finally {
            AtomicFiles.deleteTreeQuietly(scratch);
        }
    }

    private static String chat(RunParts parts, Blobs blobs, Map<String, Object> in) {
        Map<String, Object> reply = new LinkedHashMap<>();
        try {
            ChatResponse r = parts.roles().optimizer().chat(Codec.request(blobs.getJson(Codec.str(in.get("request")))));
            reply.put("response", Codec.response(r));
        } catch (RuntimeException e) {
            // the model already retried as configured: the coordinator's optimizer decides what it means
            Map<String, Object> err = Json.obj("class", e.getClass().getName(),
                    "message", Redactor.scrub(String.valueOf(e.getMessage())));
            if (e instanceof BackendException b) Json.put(err, "backend", b.backend(), "status", b.status());
            reply.put("error", err);
        }
        return blobs.putJson(reply);
    }
}
