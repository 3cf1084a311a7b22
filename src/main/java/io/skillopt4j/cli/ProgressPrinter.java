package io.skillopt4j.cli;

import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;

import java.io.PrintWriter;
import java.util.Map;

/**
 * Not thread-safe; receives events from the training thread only. The CLI's progress output: one line when
 * the run starts, one per finished step, one per epoch boundary and one at the end.
 */
final class ProgressPrinter implements TrainingListener {
    private final PrintWriter out;
    private volatile CostLedger ledger;

    ProgressPrinter(PrintWriter out) { this.out = out; }

    /** Step lines also show dollars spent and left of {@code l}. */
    void ledger(CostLedger l) { this.ledger = l; }

    @Override public void runStarted(TrainingEvent.RunStarted e) {
        out.println("[train] " + e.outRoot() + "  " + e.numEpochs() + " epochs x " + e.stepsPerEpoch() + " steps"
                + (e.resumeFrom() > 1 ? "  (resuming at step " + e.resumeFrom() + ")" : ""));
        out.flush();
    }

    @Override public void stageFinished(TrainingEvent.StageFinished e) {
        String l = line(e);
        if (l == null) return;
        out.println(l);
        out.flush();
    }

    /** Returns the line of a stage that gets one (the baseline, the run folder's notes, the final selection), else null. */
    static String line(TrainingEvent.StageFinished e) {
        boolean shown = e.step() == 0 && (e.stage().equals("baseline") || e.stage().equals("run_folder")) || e.stage().equals("final_selection");
        return shown ? "[" + e.stage() + "] " + e.detail() : null;
    }

    @Override public void stepFinished(TrainingEvent.StepFinished e) {
        CostLedger l = ledger;
        out.println(line(e) + (l == null ? "" : "  " + l.progressLine()));
        out.flush();
    }

    /** Returns the one-line summary of a finished step. */
    static String line(TrainingEvent.StepFinished e) {
        Map<String, Object> r = e.record();
        // no String.format: its first use initialises the locale's number symbols, start-up work this line can skip
        StringBuilder b = new StringBuilder("[step ").append(e.step()).append('/').append(e.totalSteps()).append("] epoch ")
                .append(r.get("epoch")).append("  rollout ").append(num(r.get("rollout_hard")));
        if (r.containsKey("n_edits_ranked")) b.append("  edits ").append(r.get("n_edits_ranked")).append('/').append(r.get("n_edits_merged"));
        if (r.containsKey("selection_hard")) b.append("  val ").append(num(r.get("selection_hard")));
        b.append("  ").append(e.action());
        b.append("  current ").append(num(r.get("current_score"))).append("  best ").append(num(r.get("best_score")));
        b.append("  ").append(io.skillopt4j.internal.Decimals.fixed(r.get("wall_time_s") instanceof Number n ? n.doubleValue() : 0.0, 1)).append('s');
        return b.toString();
    }

    @Override public void epochFinished(TrainingEvent.EpochFinished e) {
        String l = line(e);
        if (l == null) return;
        out.println(l);
        out.flush();
    }

    /** Returns the one-line summary of an epoch's end, or null when it had neither a slow update nor a meta skill. */
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
                    + num(s.get("test_hard")) + "  summary " + e.outRoot().resolve("summary.json"));
        }
        out.flush();
    }

    private static String blank(String s) { return s.isEmpty() ? "-" : s; }

    private static String num(Object o) {
        return o instanceof Number n ? io.skillopt4j.internal.Decimals.fixed(n.doubleValue(), 3) : "n/a";
    }
}
