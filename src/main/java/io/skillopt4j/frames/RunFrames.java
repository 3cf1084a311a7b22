package io.skillopt4j.frames;

import io.skillopt4j.backend.PriceTable;
import io.skillopt4j.internal.Decimals;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.FaultCounts;
import io.skillopt4j.run.RunReader;
import io.skillopt4j.run.RunSnapshot;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Thread-safe (frames are built once, lazily, and every accessor returns a fresh copy). The Tablesaw frames of
 * one run folder; their columns and types are listed in docs/frames.md.
 */
public final class RunFrames {
    private final RunSnapshot run;
    private final Map<String, Frame> cache = new LinkedHashMap<>();

    private RunFrames(RunSnapshot run) { this.run = run; }

    /** Reads {@code dir} (see {@link RunReader#read(Path)}) and returns its frames. */
    public static RunFrames load(Path dir) { return new RunFrames(RunReader.read(dir)); }

    public static RunFrames of(RunSnapshot run) { return new RunFrames(run); }

    /** The raw maps of every file read. */
    public RunSnapshot snapshot() { return run; }

    /** Returns one line per missing or damaged file; empty for a complete run. */
    public List<String> warnings() { return run.warnings(); }

    /** One row per step record (history.json, deduplicated by step). */
    public Frame steps() { return cached("steps", () -> StepFrames.steps(run)); }

    /** One row per epoch: step aggregates, slow-update and meta-skill outcomes, best so far. */
    public Frame epochs() { return cached("epochs", () -> StepFrames.epochs(run)); }

    /** One row per edit of each step's merged pool, with rank, selection and apply status. */
    public Frame edits() { return cached("edits", () -> StepFrames.edits(run)); }

    /** One row per task per evaluation (train batches, selection, test, slow update, meta skill). */
    public Frame rollouts() { return cached("rollouts", () -> RolloutFrames.rollouts(run)); }

    /** One row per trace step of exec-target rollouts (claude/codex/cursor); empty for chat targets. */
    public Frame traces() { return cached("traces", () -> RolloutFrames.traces(RunReader.traces(run))); }

    /** Per-worker activity counts, retries and queue wait of a run on the Temporal engine; empty for local runs. */
    public Frame engineWorkers() { return cached("engine_workers", () -> workers(run.dir())); }

    private static Frame workers(Path runDir) {
        Map<String, long[]> by = new TreeMap<>(); // activities, rollout, optimizer, retries, queue sum, queue max, run sum
        for (Map<String, Object> r : Json.readObjectLines(runDir.resolve("engine").resolve("activities.jsonl"))) {
            long[] a = by.computeIfAbsent(String.valueOf(r.get("worker")), k -> new long[7]);
            long queue = num(r.get("queue_ms"));
            a[0]++;
            a["rollout".equals(r.get("type")) ? 1 : 2]++;
            a[3] += Math.max(0, num(r.get("attempt")) - 1); // the attempts before the one that finished
            a[4] += queue;
            a[5] = Math.max(a[5], queue);
            a[6] += num(r.get("run_ms"));
        }
        RowBuilder b = new RowBuilder().strings("worker").longs("activities", "rollout_items", "optimizer_calls", "retries")
                .doubles("queue_wait_ms_mean").longs("queue_wait_ms_max").doubles("run_ms_mean");
        by.forEach((w, a) -> b.row(w, a[0], a[1], a[2], a[3], Math.round(10.0 * a[4] / a[0]) / 10.0, a[5],
                Math.round(10.0 * a[6] / a[0]) / 10.0));
        return b.build("engine_workers", null);
    }

    /** Faults per stage over every session of the run, with a {@code _total} row (docs/outputs.md). */
    public Frame faults() {
        return cached("faults", () -> {
            RowBuilder b = new RowBuilder().strings("stage").longs(FaultCounts.KINDS.toArray(String[]::new));
            faultCounts().forEach((stage, kinds) -> b.row(Stream.concat(Stream.of(stage),
                    FaultCounts.KINDS.stream().map(k -> kinds.getOrDefault(k, 0L))).toArray()));
            return b.build("faults", null);
        });
    }

    /** Stage → kind → n ({@code "_total"} last): summary.json's {@code fault_usage}, else {@code faults.jsonl}. */
    private Map<String, Map<String, Long>> faultCounts() {
        Object stored = run.summary().get("fault_usage");
        if (stored instanceof Map<?, ?> m) return FaultCounts.plus(FaultCounts.empty(), m);
        return run.dir() == null ? FaultCounts.empty() : FaultCounts.stored(run.dir());
    }

    /** Token counts per step and stage (plus what ran outside steps), without cost. */
    public Frame tokens() { return cached("tokens", () -> RolloutFrames.tokens(run, null)); }

    /** Token counts priced by {@code prices}, else by an entry named after the role; else the cost is missing. */
    public Frame tokens(PriceTable prices) { return RolloutFrames.tokens(run, prices); }

    /** Dollars by phase, role and stage from the run's cost ledger, with a {@code _total} row. */
    public Frame cost() { return cached("cost", () -> CostFrames.cost(run)); }

    /** One row per test summary and task type ({@code test_eval*}/summary.json): eval, task_type, total, hard_acc. */
    public Frame tests() {
        return cached("tests", () -> {
            RowBuilder b = new RowBuilder().strings("eval", "task_type").ints("total").doubles("hard_acc", "hard_acc_low", "hard_acc_high");
            run.testSummaries().forEach((eval, m) -> m.forEach((type, v) -> {
                Map<String, Object> cell = StepFrames.map(v);
                io.skillopt4j.train.stats.Interval ci = Intervals.test(run, eval, type);
                b.row(eval, type, cell.get("total"), cell.get("hard_acc"), Intervals.low(ci), Intervals.high(ci));
            }));
            return b.build("tests", null);
        });
    }

    /** A key/value description of the run: status, models, outcome, scores, tokens, warnings. */
    public Frame summary() {
        return cached("summary", () -> {
            Map<String, Object> s = run.summary();
            // a session stopped by errored calls leaves the folder resumable: say so rather than "incomplete"
            boolean errored = !run.finished() && run.dir() != null && "errored".equals(FaultCounts.lastOutcome(run.dir(), run.lastCompletedStep()));
            Map<String, Object> kv = Json.obj("run", run.name(), "status", errored ? "stopped (errored: resumable)" : run.status(),
                    "env", run.configValue("env"), "optimizer_model", run.configValue("optimizer_model"),
                    "target_model", run.configValue("target_model"), "update_mode", run.configValue("skill_update_mode"),
                    "steps_completed", run.lastCompletedStep(), "steps_planned", run.plannedSteps());
            for (String k : List.of("total_accepts", "total_rejects", "total_skips", "baseline_selection_hard",
                    "best_selection_hard", "best_step", "best_origin", "baseline_test_hard", "test_hard", "test_delta_hard",
                    "final_test_hard", "total_wall_time_s")) {
                kv.put(k, s.containsKey(k) ? s.get(k) : k.equals("best_step") ? run.runtimeState().get("best_step") : null);
            }
            kv.put("total_tokens", StepFrames.map(StepFrames.map(s.get("token_summary")).get("_total")).get("total_tokens"));
            // fault totals over every session; per stage in faults()
            Map<String, Long> faults = faultCounts().get("_total");
            for (String k : FaultCounts.KINDS) kv.put(k, faults.getOrDefault(k, 0L));
            kv.put("warnings", run.warnings().size());
            // 95 % intervals from the per-item rows ("" when the folder has none): the scores above, and the paired test gains
            kv.put("baseline_test_hard_ci", Intervals.text(Intervals.test(run, "test_eval_baseline", "overall")));
            kv.put("test_hard_ci", Intervals.text(Intervals.test(run, "test_eval", "overall")));
            kv.put("test_delta_hard_ci", Intervals.text(Intervals.testGain(run, "test_eval")));
            kv.put("final_test_hard_ci", Intervals.text(Intervals.test(run, "test_eval_final", "overall")));
            kv.put("final_test_delta_ci", Intervals.text(Intervals.testGain(run, "test_eval_final")));
            RowBuilder b = new RowBuilder().strings("key", "value");
            kv.forEach((k, v) -> b.row(k, v instanceof Double d ? Decimals.shortest(d) : Objects.toString(v, "")));
            return b.build("summary", run.name() + " · " + run.status() + headline());
        });
    }

    /** E.g. {@code " · best val 0.975 at step 7"}, or "" when unknown. */
    String headline() { return Headline.suffix(run); }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }

    private synchronized Frame cached(String key, Supplier<Frame> build) {
        return cache.computeIfAbsent(key, k -> build.get()).copy();
    }

    @Override public String toString() { return steps().print(TextTable.MAX_ROWS, TextTable.MAX_WIDTH); }
}
