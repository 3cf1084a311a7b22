package io.skillopt4j.run;

import io.skillopt4j.internal.Decimals;

import java.nio.file.Path;

/**
 * Immutable. Where a training is, folded from its {@link TrainingEvent}s ({@link #next}): {@code step} is the last
 * finished (0 before the first), {@code totalSteps} 0 when unknown, {@code action} the last gate action or run event;
 * the gate scores {@code current} and {@code best} are NaN before the baseline, {@code seconds} NaN when not measured,
 * {@code outRoot} null before the run starts. {@code toString()} is one line, e.g.
 * {@code training: step 3/10 accept_new_best · val 0.6 · best 0.6 · 12 s}.
 */
public record TrainingProgress(int step, int totalSteps, String action, double current, double best, double seconds,
                               Path outRoot, boolean done) {
    public TrainingProgress {
        action = action == null ? "" : action;
    }

    /** Before the first event. */
    public static TrainingProgress none() {
        return new TrainingProgress(0, 0, "", Double.NaN, Double.NaN, Double.NaN, null, false);
    }

    /** Returns the progress after {@code e}; events that do not move it return {@code this}. */
    public TrainingProgress next(TrainingEvent e) {
        if (e instanceof TrainingEvent.RunStarted r) {
            return new TrainingProgress(Math.max(0, r.resumeFrom() - 1), r.totalSteps(), r.resumeFrom() > 1 ? "resumed" : "started",
                    current, best, seconds, r.outRoot(), false);
        }
        if (e instanceof TrainingEvent.GateDecision g) return new TrainingProgress(step, totalSteps, action, g.currentScore(), g.bestScore(), seconds, outRoot, done);
        if (e instanceof TrainingEvent.StepFinished f) return new TrainingProgress(f.step(), f.totalSteps(), f.action(), current, best, seconds, outRoot, done);
        if (e instanceof TrainingEvent.EpochFinished f) {
            String slow = f.slowUpdateAction() == null || f.slowUpdateAction().isEmpty() ? "" : ", slow update " + f.slowUpdateAction();
            return new TrainingProgress(step, totalSteps, "epoch " + f.epoch() + " done" + slow, f.currentScore(), f.bestScore(), seconds, outRoot, done);
        }
        if (e instanceof TrainingEvent.RunFinished f) {
            double b = f.summary().get("best_selection_hard") instanceof Number n ? n.doubleValue() : best;
            return new TrainingProgress(step, totalSteps, f.stopped() ? "stopped" : "finished", current, b, seconds, outRoot, true);
        }
        return this;
    }

    /** True for the events after which a progress display changes (not the gate decision the step line follows). */
    public static boolean shown(TrainingEvent e) {
        return e instanceof TrainingEvent.RunStarted || e instanceof TrainingEvent.StepFinished
                || e instanceof TrainingEvent.EpochFinished || e instanceof TrainingEvent.RunFinished;
    }

    public TrainingProgress withSeconds(double s) { return new TrainingProgress(step, totalSteps, action, current, best, s, outRoot, done); }

    /** This progress with the scores the run folder holds where the events have not told them yet, and {@code done}. */
    public TrainingProgress withKnown(double cur, double bst, boolean isDone) {
        return new TrainingProgress(step, totalSteps, action, Double.isNaN(current) ? cur : current, Double.isNaN(best) ? bst : best,
                seconds, outRoot, done || isDone);
    }

    /** Returns the finished fraction in [0, 1] (0 when the plan is unknown). */
    public double fraction() { return totalSteps <= 0 ? 0 : Math.min(1.0, (double) step / totalSteps); }

    @Override public String toString() {
        StringBuilder sb = new StringBuilder(done ? "done: " : "training: ")
                .append("step ").append(step).append('/').append(totalSteps);
        if (!action.isEmpty()) sb.append(' ').append(action);
        if (!Double.isNaN(current)) sb.append(" · val ").append(Decimals.shortest(current));
        if (!Double.isNaN(best)) sb.append(" · best ").append(Decimals.shortest(best));
        if (!Double.isNaN(seconds)) sb.append(" · ").append(Decimals.fixed(seconds, 0)).append(" s");
        // the folder on the first and last line only, so the per-step lines stay short
        if (outRoot != null && (done || action.equals("started") || action.equals("resumed"))) sb.append(" · ").append(outRoot);
        return sb.toString();
    }
}
