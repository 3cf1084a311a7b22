package io.skillopt4j.frames;

import io.skillopt4j.backend.PriceTable;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RolloutSet;
import io.skillopt4j.run.RunSnapshot;
import io.skillopt4j.run.TraceFile;

import tech.tablesaw.api.DoubleColumn;
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
        RowBuilder b = new RowBuilder().strings("phase", "split").ints("epoch", "step", "batch").strings("id", "task_type")
                .doubles("hard", "soft").strings("predicted_answer", "fail_reason").ints("n_turns");
        int n = 0;
        double hardSum = 0;
        for (RolloutSet set : run.rolloutSets()) {
            for (RolloutResult r : set.results()) {
                Object ans = r.fields().get("predicted_answer");
                b.row(set.phase(), set.split(), set.epoch(), set.step(), set.batch(), r.id(), r.taskType(), r.hard(), r.soft(),
                        str(ans != null ? ans : r.fields().get("answer")), r.failReason(),
                        r.fields().get("n_turns") instanceof Number t ? t.intValue() : null);
                n++;
                hardSum += r.hard();
            }
        }
        String footer = b.counts(n + " rollouts") + " · " + run.rolloutSets().size() + " rollout dirs";
        if (n > 0) footer += " · mean hard " + io.skillopt4j.internal.Decimals.shortest(hardSum / n);
        return b.build("rollouts", footer);
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
        return b.build("traces", b.counts(n + " trace steps") + " · " + files.size() + " traces");
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
