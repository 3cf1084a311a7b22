package io.skillopt4j.frames;

import io.skillopt4j.backend.PriceTable;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RolloutSet;
import io.skillopt4j.run.RunSnapshot;
import io.skillopt4j.run.TraceFile;

import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.columns.Column;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static io.skillopt4j.frames.StepFrames.map;
import static io.skillopt4j.frames.StepFrames.str;

/** Stateless. Builds the rollouts, traces and tokens frames (columns documented in docs/frames.md). */
final class RolloutFrames {
    static final int TEXT_CAP = 200;

    private RolloutFrames() {}

    static Frame rollouts(RunSnapshot run) {
        // Columns are filled directly (no per-row map): this is the big frame.
        StringColumn phase = StringColumn.create("phase"), split = StringColumn.create("split");
        IntColumn epoch = IntColumn.create("epoch"), step = IntColumn.create("step"), batch = IntColumn.create("batch");
        StringColumn id = StringColumn.create("id"), type = StringColumn.create("task_type");
        DoubleColumn hard = DoubleColumn.create("hard"), soft = DoubleColumn.create("soft");
        StringColumn answer = StringColumn.create("predicted_answer"), fail = StringColumn.create("fail_reason");
        IntColumn turns = IntColumn.create("n_turns");
        double hardSum = 0;
        for (RolloutSet set : run.rolloutSets()) {
            for (RolloutResult r : set.results()) {
                phase.append(set.phase());
                split.append(set.split());
                intOrMissing(epoch, set.epoch());
                intOrMissing(step, set.step());
                intOrMissing(batch, set.batch());
                id.append(r.id());
                type.append(r.taskType());
                hard.append(r.hard());
                soft.append(r.soft());
                Object ans = r.fields().get("predicted_answer");
                answer.append(str(ans != null ? ans : r.fields().get("answer")));
                fail.append(r.failReason());
                intOrMissing(turns, r.fields().get("n_turns") instanceof Number n ? n.intValue() : null);
                hardSum += r.hard();
            }
        }
        int n = id.size();
        List<Column<?>> cols = List.of(phase, split, epoch, step, batch, id, type, hard, soft, answer, fail, turns);
        String footer = n + " rollouts x " + cols.size() + " columns · " + run.rolloutSets().size() + " rollout dirs";
        if (n > 0) footer += " · mean hard " + io.skillopt4j.internal.Decimals.shortest(hardSum / n);
        return new Frame("rollouts", new java.util.ArrayList<>(cols), footer);
    }

    private static void intOrMissing(IntColumn c, Integer v) {
        if (v == null) c.appendMissing(); else c.append(v);
    }

    static Frame traces(List<TraceFile> files) {
        RowBuilder b = new RowBuilder().strings("phase", "split").ints("step").strings("id", "backend").ints("index")
                .strings("kind", "tool").ints("chars").bools("truncated").strings("text");
        int n = 0;
        for (TraceFile f : files) {
            int i = 0;
            for (TraceStep s : f.steps()) {
                String text = s.text().length() > TEXT_CAP ? s.text().substring(0, TEXT_CAP) : s.text();
                b.row(f.set().phase(), f.set().split(), f.set().step(), f.id(), f.backend(), ++i, s.kind().wire(),
                        s.tool(), s.chars(), s.truncated(), text);
                n++;
            }
        }
        return b.build("traces", n + " trace steps x " + RowBuilder.names(b).size() + " columns · " + files.size() + " traces");
    }

    /** Rows per (step, stage) plus {@code outside_steps} rows for the rest of token_summary: totals match upstream. */
    static Frame tokens(RunSnapshot run, PriceTable prices) {
        RowBuilder b = new RowBuilder().strings("scope").ints("epoch", "step").strings("stage", "role", "model")
                .longs("calls", "prompt_tokens", "completion_tokens", "total_tokens").doubles("cost_usd");
        Map<String, long[]> inSteps = new TreeMap<>();
        for (Map<String, Object> h : run.history()) {
            for (Map.Entry<String, Object> e : map(h.get("tokens")).entrySet()) {
                long[] c = counts(map(e.getValue()));
                inSteps.merge(e.getKey(), c, RolloutFrames::plus);
                addRow(b, run, prices, "step", h.get("epoch"), h.get("step"), e.getKey(), c);
            }
        }
        for (Map.Entry<String, Object> e : map(run.summary().get("token_summary")).entrySet()) {
            if (e.getKey().startsWith("_")) continue;
            long[] total = counts(map(e.getValue()));
            long[] seen = inSteps.getOrDefault(e.getKey(), new long[3]);
            long[] rest = {total[0] - seen[0], total[1] - seen[1], total[2] - seen[2]};
            if (rest[0] <= 0 && rest[1] <= 0 && rest[2] <= 0) continue;
            addRow(b, run, prices, "outside_steps", null, null, e.getKey(),
                    new long[] {Math.max(0, rest[0]), Math.max(0, rest[1]), Math.max(0, rest[2])});
        }
        Frame f = b.build("tokens", null);
        DoubleColumn usd = f.doubleColumn("cost_usd");
        // sum() skips missing cells; over no rows it is NaN, which (long) makes 0
        String footer = f.rowCount() + " rows x " + f.columnCount() + " columns · " + (long) f.longColumn("total_tokens").sum()
                + " tokens";
        if (usd.countMissing() < f.rowCount()) footer += String.format(Locale.ROOT, " · $%.4f", usd.sum());
        return new Frame("tokens", new java.util.ArrayList<>(f.columns()), footer);
    }

    /** A stage key is {@code stage} or {@code role/stage}. */
    private static void addRow(RowBuilder b, RunSnapshot run, PriceTable prices, String scope, Object epoch,
                               Object step, String stageKey, long[] c) {
        int slash = stageKey.indexOf('/');
        String stage = slash > 0 ? stageKey.substring(slash + 1) : stageKey;
        String role = slash > 0 ? stageKey.substring(0, slash) : roleOf(stage);
        String model = str(run.configValue(role + "_model"));
        Double usd = cost(prices, model, role, c[1], c[2]);
        b.row(scope, epoch, step, stage, role, model, c[0], c[1], c[2], c[1] + c[2], usd);
    }

    /** Prices by model (exact or longest prefix, as the backends do), else by a role entry ("optimizer"/"target"). */
    private static Double cost(PriceTable prices, String model, String role, long prompt, long completion) {
        if (prices == null) return null;
        String key = prices.find(model) != null ? model : prices.find(role) != null ? role : null;
        return key == null ? null : prices.cost(key, new Usage(prompt, completion, prompt + completion, 0));
    }

    /** Upstream counts only two roles: the target runs rollouts, the optimizer every other stage. */
    static String roleOf(String stage) {
        String s = stage.toLowerCase(Locale.ROOT);
        return s.startsWith("rollout") || s.startsWith("target") || s.contains("eval") ? "target" : "optimizer";
    }

    private static long[] counts(Map<String, Object> m) {
        return new long[] {(long) StepFrames.dbl(m.get("calls")), (long) StepFrames.dbl(m.get("prompt_tokens")),
                (long) StepFrames.dbl(m.get("completion_tokens"))};
    }

    private static long[] plus(long[] a, long[] b) { return new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
}
