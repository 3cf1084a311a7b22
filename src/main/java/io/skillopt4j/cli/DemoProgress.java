package io.skillopt4j.cli;

import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Thread-safe. The demo's progress bar on stderr: one line redrawn on a terminal; elsewhere the step lines of
 * {@code train} ({@link ProgressPrinter#line}). Also the demo's closing score table.
 */
final class DemoProgress implements TrainingListener, RolloutRunner.Progress {
    private final PrintWriter err;
    private final boolean enabled;
    private final boolean tty = System.console() != null;
    private int total = 0, step = 0, epoch = 0, done = 0, items = 0;
    private String stage = "baseline", last = "";
    private double current = Double.NaN, best = Double.NaN;
    private long lastDraw = 0;

    private volatile CostLedger ledger;

    DemoProgress(PrintWriter err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    /** Shows dollars spent and left of {@code l} on the progress line. */
    void ledger(CostLedger l) { this.ledger = l; }

    private String dollars() { CostLedger l = ledger; return l == null ? "" : "  " + l.progressLine(); }

    @Override public synchronized void on(TrainingEvent e) {
        if (e instanceof TrainingEvent.RunStarted s) total = s.totalSteps();
        else if (e instanceof TrainingEvent.StepStarted s) { step = s.step(); epoch = s.epoch(); stage = "rollout"; }
        else if (e instanceof TrainingEvent.StageFinished s) {
            boolean finalSelection = s.stage().equals("final_selection");
            stage = finalSelection ? "final test" : s.stage(); // the test evaluations come next
            // the final selection's line (of train's stage lines the only one the demo shows), off a terminal as train
            // prints it, on a terminal above the bar: it explains a best that no step line announced
            if (enabled && finalSelection) {
                String l = ProgressPrinter.line(s);
                err.println(tty ? "\r" + String.format("%-140s", l) : l);
            }
        }
        else if (e instanceof TrainingEvent.GateDecision g) { current = g.currentScore(); best = g.bestScore(); }
        else if (e instanceof TrainingEvent.StepFinished s) {
            last = s.action();
            if (enabled && !tty) err.println(ProgressPrinter.line(s, null) + dollars()); // off a terminal: train's step lines
            stage = step >= total ? "final test" : "next step";
        } else if (e instanceof TrainingEvent.EpochFinished f) {
            current = f.currentScore();
            best = f.bestScore();
            stage = "epoch " + f.epoch() + " done";
            String l = ProgressPrinter.line(f);
            if (enabled && !tty && l != null) err.println(l); // off a terminal: train's epoch lines too
        }
        draw(true);
    }

    @Override public synchronized void onItem(int d, int n, RolloutResult result) {
        done = d;
        items = n;
        draw(d == n);
    }

    private void draw(boolean force) {
        if (!enabled || !tty) return;
        long now = System.nanoTime();
        if (!force && now - lastDraw < 100_000_000L) return;
        lastDraw = now;
        int width = 24, filled = total == 0 ? 0 : Math.min(width, step * width / total);
        String bar = "#".repeat(filled) + "-".repeat(width - filled);
        String line = String.format(Locale.ROOT, "[%s] step %d/%d ep %d | %s %d/%d | val %s best %s | %s%s",
                bar, step, total, epoch, stage, done, items, fmt(current), fmt(best), last, dollars().isEmpty() ? "" : " |" + dollars());
        err.print("\r" + (line.length() > 140 ? line.substring(0, 140) : String.format("%-140s", line)));
        err.flush();
    }

    synchronized void finish() {
        if (enabled && tty) { err.println(); err.flush(); }
    }

    private static String fmt(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v); }

    /** Prints the scores with their 95 % intervals (none without per-item rows), and where the results are. */
    static void printSummary(PrintWriter out, Map<String, Object> s, Path outRoot, Path report, CostLedger ledger, boolean simulator) {
        Map<?, ?> ci = intervals(outRoot);
        out.println();
        out.println("                            hard     soft     95 % interval");
        row(out, "validation: initial skill", s.get("baseline_selection_hard"), null, ci.get("baseline_selection_hard"));
        row(out, "validation: best skill", s.get("best_selection_hard"), null, ci.get("best_selection_hard"));
        row(out, "test: initial skill", s.get("baseline_test_hard"), s.get("baseline_test_soft"), ci.get("baseline_test_hard"));
        row(out, "test: best skill", s.get("test_hard"), s.get("test_soft"), ci.get("test_hard"));
        if (s.get("test_delta_hard") instanceof Number d)
            out.println(String.format(Locale.ROOT, "%-28s%+.3f            %s", "test gain (best - initial)", d.doubleValue(),
                    bounds(ci.get("test_delta_hard"))).stripTrailing()); // a paired interval: the same test items on both sides
        out.printf(Locale.ROOT, "steps: %s accepted, %s rejected, %s skipped; best at step %s; wall %s s%n",
                s.get("total_accepts"), s.get("total_rejects"), s.get("total_skips"), s.get("best_step"), s.get("total_wall_time_s"));
        if (s.get("token_summary") instanceof Map<?, ?> t && t.get("_total") instanceof Map<?, ?> tot)
            out.printf(Locale.ROOT, "model calls: %s, tokens: %s%n", tot.get("calls"), tot.get("total_tokens"));
        if (ledger != null) out.println("cost: " + ledger.progressLine() + (simulator ? " (simulator prices)" : "") + "; per call in cost_ledger.jsonl");
        out.println();
        out.println("run folder:  " + outRoot);
        out.println("best skill:  " + outRoot.resolve("best_skill.md"));
        out.println("report:      " + (report == null ? "(not written)" : report));
        out.println("summary:     " + outRoot.resolve("summary.json"));
    }

    private static void row(PrintWriter out, String label, Object hard, Object soft, Object interval) {
        out.println(String.format(Locale.ROOT, "%-28s%s    %-5s    %s", label, num(hard), soft == null ? "" : num(soft), bounds(interval)).stripTrailing());
    }

    /** The run's score_intervals.json, or an empty map when it is absent or unreadable (no interval column then). */
    private static Map<?, ?> intervals(Path outRoot) {
        try {
            Path f = outRoot.resolve("score_intervals.json");
            return java.nio.file.Files.isRegularFile(f) && io.skillopt4j.internal.Json.read(f) instanceof Map<?, ?> m ? m : Map.of();
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /** "[0.700, 0.950]" from a score_intervals.json entry ({estimate, interval: [low, high], ...}); "" when unknown. */
    private static String bounds(Object entry) {
        if (entry instanceof Map<?, ?> m && m.get("interval") instanceof java.util.List<?> l && l.size() == 2
                && l.get(0) instanceof Number lo && l.get(1) instanceof Number hi)
            return String.format(Locale.ROOT, "[%.3f, %.3f]", lo.doubleValue(), hi.doubleValue());
        return "";
    }

    private static String num(Object o) { return o instanceof Number n ? String.format(Locale.ROOT, "%.3f", n.doubleValue()) : "  -  "; }
}
