package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.ErroredHalt;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.Setting;

import io.skillopt4j.backend.BatchScope;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.ItemTraces;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.RemoteItems;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RolloutStamp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe if the benchmark is. The rollout stage; too many errored items throw {@link ErroredHalt}. */
public final class Rollout {
    /** Immutable but for {@code traces}, whose files may still be being written ({@link ItemTraces#awaitWritten()}). */
    public record Outcome(List<RolloutResult> results, double hard, double soft, int errored, ItemTraces traces) {
        public Outcome {
            results = List.copyOf(results);
            traces = traces == null ? new ItemTraces() : traces;
        }

    }

    private final Benchmark benchmark;
    private final BackgroundRollouts background;
    private final RemoteItems remote;
    private final Duration batchPoll;
    private final double maxErrored;
    private final UsageMeter meter;
    private final io.skillopt4j.run.RunWriter deferTo;

    public Rollout(Benchmark benchmark) { this(benchmark, null, null, null, 0.0, null, null); }

    /** Settles {@code background}'s job for a folder before rolling into it; {@code remote}: an engine's workers. */
    Rollout(Benchmark benchmark, BackgroundRollouts background, RemoteItems remote, Duration batchPoll, double maxErrored,
                    UsageMeter meter, io.skillopt4j.run.RunWriter deferTo) {
        this.benchmark = benchmark;
        this.background = background;
        this.remote = remote;
        this.batchPoll = batchPoll;
        this.maxErrored = maxErrored;
        this.meter = meter;
        this.deferTo = deferTo;
    }

    /** Errored items tolerated up to {@code maxFraction} of a batch, counted into {@code meter} (may be null). */
    public Rollout withErrored(double maxFraction, UsageMeter meter) {
        return new Rollout(benchmark, background, remote, batchPoll, maxFraction, meter, deferTo);
    }

    /** Evaluation rollouts sent through the provider's Batch API, polled every {@code poll}; null = direct calls. */
    public Rollout withBatchApi(Duration poll) { return new Rollout(benchmark, background, remote, poll, maxErrored, meter, deferTo); }

    /** An evaluation's item files left to finish behind the caller; {@code writer}'s next commit waits for them. */
    Rollout withDeferredWrites(io.skillopt4j.run.RunWriter writer) {
        return new Rollout(benchmark, background, remote, batchPoll, maxErrored, meter, writer);
    }

    /** {@code evaluation.batch_api} and {@code batch_poll_seconds} of a flat config: the poll interval, or null when off. */
    public static Duration batchPoll(FlatConfig cfg) {
        if (!Setting.bool("batch_api").of(cfg)) return null;
        double s = Setting.decimal("batch_poll_seconds").of(cfg);
        if (!(s > 0)) throw io.skillopt4j.ConfigException.badValue("", "batch_poll_seconds", s, "a number of seconds > 0");
        return Duration.ofMillis(Math.max(1, Math.round(s * 1000)));
    }

    /** Rolls out {@code batch} with {@code skill} into {@code dir}; a training rollout's files follow its traces. */
    public Outcome run(BatchSpec batch, String skill, Path dir, boolean evalFeedback) {
        if (deferTo != null) deferTo.awaitPending(dir); // a folder is rolled into again only once its files are written
        ItemTraces traces = evalFeedback || deferTo != null ? new ItemTraces() : null;
        try {
            Outcome o = traces == null ? rollOut(batch, skill, dir, evalFeedback, null) : ItemTraces.collect(traces, () -> rollOut(batch, skill, dir, evalFeedback, traces));
            if (!evalFeedback && deferTo != null) deferTo.pending(dir, traces.written());
            return o;
        } catch (RuntimeException | Error e) {
            if (traces != null) traces.awaitWrittenQuietly(); // a failed rollout leaves its folder complete, as before
            throw e;
        }
    }

    private Outcome rollOut(BatchSpec batch, String skill, Path dir, boolean evalFeedback, ItemTraces traces) {
        RolloutStamp.claim(dir, skill); // rows of another skill in this folder are redone, never reused
        // past this many errored items the stage stops whatever the rest do: the runner starts no more of them
        RolloutRequest request = new RolloutRequest(batch, skill, dir, evalFeedback).withRemote(remote)
                .withErroredLimit((int) Math.floor(maxErrored * batch.items().size()));
        List<RolloutResult> r;
        try {
            if (batchPoll != null && !evalFeedback) {
                // nobody waits on an evaluation: its calls may take the provider's batch route (and discount)
                r = BatchScope.run(dir, batchPoll, () -> benchmark.rollout(request));
            } else if (background == null) {
                r = benchmark.rollout(request);
            } else {
                background.settle(dir, skill);
                r = background.foreground(() -> benchmark.rollout(request));
            }
        } catch (ErroredHalt stoppedEarly) { // the runner stopped at the errored limit
            recordErrored(stoppedEarly.errored());
            throw stoppedEarly;
        }
        List<RolloutResult> scored = r.stream().filter(x -> !x.isErrored()).toList();
        int errored = r.size() - scored.size();
        if (errored > 0) {
            recordErrored(errored);
            if (scored.isEmpty() || errored > maxErrored * r.size()) {
                String first = r.stream().filter(RolloutResult::isErrored).findFirst().map(RolloutResult::failReason).orElse("");
                throw ErroredHalt.rollout(errored, r.size(), 0, first, dir.resolve(io.skillopt4j.env.RolloutRunner.ERRORED_FILE));
            }
        }
        double[] hs = score(scored);
        return new Outcome(scored, hs[0], hs[1], errored, traces);
    }

    private void recordErrored(int errored) {
        if (meter != null) for (int i = 0; i < errored; i++) meter.recordFault("target", "rollout", "errored");
    }

    /** {@code train.max_errored_fraction} of a flat config, checked to be a fraction in [0, 1]. */
    public static double maxErroredFraction(FlatConfig cfg) {
        double f = Setting.decimal("max_errored_fraction").of(cfg);
        if (!(f >= 0 && f <= 1)) throw io.skillopt4j.ConfigException.badValue("", "max_errored_fraction", f, "a fraction in [0, 1]");
        return f;
    }

    /** Upstream's {@code compute_score}: means of hard and soft; (0, 0) for no results. */
    public static double[] score(List<RolloutResult> results) {
        if (results.isEmpty()) return new double[] {0.0, 0.0};
        double h = 0, s = 0;
        for (RolloutResult r : results) { h += r.hard(); s += r.soft(); }
        return new double[] {h / results.size(), s / results.size()};
    }

    /** Upstream's test {@code summary.json}: {type: {total, hard_acc}} per task type, and "overall". */
    public static Map<String, Object> buckets(List<String> taskTypes, List<RolloutResult> results) {
        Map<String, double[]> acc = new LinkedHashMap<>();
        for (String t : taskTypes) acc.put(t, new double[2]);
        double[] overall = new double[2];
        acc.put("overall", overall);
        for (RolloutResult r : results) {
            double[] a = acc.computeIfAbsent(r.taskType(), k -> new double[2]);
            a[0]++; a[1] += r.hard();
            overall[0]++; overall[1] += r.hard();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        acc.forEach((k, a) -> out.put(k, Json.obj("total", (int) a[0], "hard_acc", a[1] / Math.max(a[0], 1))));
        return out;
    }
}
