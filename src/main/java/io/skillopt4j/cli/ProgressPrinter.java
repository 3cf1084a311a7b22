package io.skillopt4j.cli;

import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;

import java.io.PrintWriter;
import java.util.Map;

/**
 * Not thread-safe; receives events from the training thread only. The CLI's progress output: one line when the run
 * starts, one per finished step and epoch, one at the end.
 */
final class ProgressPrinter implements TrainingListener {
    private final PrintWriter out;
    private volatile CostLedger ledger;
    private volatile java.nio.file.Path outRoot; // where the step lines' intervals read their selection rows

    ProgressPrinter(PrintWriter out) { this.out = out; }

    /** Step lines also show dollars spent and left of {@code l}. */
    void ledger(CostLedger l) { this.ledger = l; }

    @Override public void runStarted(TrainingEvent.RunStarted e) {
        outRoot = e.outRoot();
        print("[train] " + e.outRoot() + "  " + e.numEpochs() + " epochs x " + e.stepsPerEpoch() + " steps"
                + (e.resumeFrom() > 1 ? "  (resuming at step " + e.resumeFrom() + ")" : ""));
    }

    @Override public void stageFinished(TrainingEvent.StageFinished e) { print(line(e)); }

    private void print(String line) {
        if (line == null) return;
        out.println(line);
        out.flush();
    }

    /** The baseline's, the run folder notes' and the final selection's line; null for other stages. */
    static String line(TrainingEvent.StageFinished e) {
        boolean shown = e.step() == 0 && (e.stage().equals("baseline") || e.stage().equals("run_folder")) || e.stage().equals("final_selection");
        return shown ? "[" + e.stage() + "] " + e.detail() : null;
    }

    @Override public void stepFinished(TrainingEvent.StepFinished e) {
        CostLedger l = ledger;
        print(line(e, outRoot) + (l == null ? "" : "  " + l.progressLine()));
    }

    /**
     * A finished step's line; the validation score has its 95 % interval from the step's selection rows under
     * {@code outRoot} when there are any, and with the honest gate the paired gain's interval and p-value follow.
     */
    static String line(TrainingEvent.StepFinished e, java.nio.file.Path outRoot) {
        Map<String, Object> r = e.record();
        // no String.format: its first use initialises the locale's number symbols, start-up work this line can skip
        StringBuilder b = new StringBuilder("[step ").append(e.step()).append('/').append(e.totalSteps()).append("] epoch ")
                .append(r.get("epoch")).append("  rollout ").append(num(r.get("rollout_hard")));
        if (r.containsKey("n_edits_ranked")) b.append("  edits ").append(r.get("n_edits_ranked")).append('/').append(r.get("n_edits_merged"));
        if (r.containsKey("selection_hard")) b.append("  val ").append(num(r.get("selection_hard"))).append(interval(outRoot, e.step()));
        if (r.get("gate_interval") instanceof java.util.List<?> ci && ci.size() == 2)
            b.append("  gain ").append(num(r.get("gate_gain"))).append(" [").append(num(ci.get(0))).append(", ").append(num(ci.get(1)))
                    .append("] p=").append(num(r.get("gate_p_value"))).append(" k=").append(r.get("gate_repeats"));
        b.append("  ").append(e.action());
        b.append("  current ").append(num(r.get("current_score"))).append("  best ").append(num(r.get("best_score")));
        b.append("  ").append(io.skillopt4j.internal.Decimals.fixed(r.get("wall_time_s") instanceof Number n ? n.doubleValue() : 0.0, 1)).append('s');
        return b.toString();
    }

    @Override public void epochFinished(TrainingEvent.EpochFinished e) { print(line(e)); }

    /** Null when the epoch had neither a slow update nor a meta skill. */
    static String line(TrainingEvent.EpochFinished e) {
        if (e.slowUpdateAction().isEmpty() && e.metaSkillAction().isEmpty()) return null;
        return "[epoch " + e.epoch() + "] slow_update " + blank(e.slowUpdateAction()) + "  meta_skill " + blank(e.metaSkillAction());
    }

    @Override public void runFinished(TrainingEvent.RunFinished e) {
        if (e.stopped()) {
            // an errored stop's line goes to stderr, printed once by the command
            if (e.summary().get("message") != null && !"errored".equals(e.summary().get("stop_reason"))) out.println(e.summary().get("message"));
            out.println("[stopped] after step " + e.summary().get("last_completed_step") + "; run the same command again to resume");
        } else {
            Map<String, Object> s = e.summary();
            out.println("[done] best step " + s.get("best_step") + "  test " + num(s.get("baseline_test_hard")) + " -> "
                    + num(s.get("test_hard")) + gain(e.outRoot()) + "  summary " + e.outRoot().resolve("summary.json"));
        }
        out.flush();
    }

    /** " [0.400, 0.900]": the 95 % interval of the step's selection score from its rows, or "" without them. */
    private static String interval(java.nio.file.Path outRoot, int step) {
        if (outRoot == null) return "";
        io.skillopt4j.train.stats.Interval ci = io.skillopt4j.train.ScoreIntervals.hard(io.skillopt4j.train.ScoreIntervals.rowsIn(
                new io.skillopt4j.run.RunPaths(outRoot).step(step).resolve("selection_eval")));
        return ci.known() ? " [" + num(ci.low()) + ", " + num(ci.high()) + "]" : "";
    }

    /** "  gain 0.300 [0.100, 0.500]": the best skill's paired test gain over the initial one (score_intervals.json), or "". */
    private static String gain(java.nio.file.Path outRoot) {
        try {
            if (io.skillopt4j.internal.Json.read(outRoot.resolve("score_intervals.json")) instanceof Map<?, ?> m
                    && m.get("test_delta_hard") instanceof Map<?, ?> d && d.get("interval") instanceof java.util.List<?> ci && ci.size() == 2)
                return "  gain " + num(d.get("estimate")) + " [" + num(ci.get(0)) + ", " + num(ci.get(1)) + "]";
        } catch (RuntimeException unreadable) {
            // the line without the gain
        }
        return "";
    }

    private static String blank(String s) { return s.isEmpty() ? "-" : s; }

    private static String num(Object o) {
        return o instanceof Number n ? io.skillopt4j.internal.Decimals.fixed(n.doubleValue(), 3) : "n/a";
    }
}
