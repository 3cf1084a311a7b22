package io.skillopt4j.notebook;

import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;

import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Thread-safe (events arrive on the training thread, the first display on the caller's). The progress of a
 * blocking {@code train()} in a cell: one output replaced in place under a kernel, one compact line per step and
 * epoch in plain JShell.
 */
final class CellProgress implements TrainingListener {
    private final LongSupplier nanos;
    private final long start;
    private Path outRoot;
    private Display.Live live;
    private int step, total;
    private double current = Double.NaN, best = Double.NaN;

    CellProgress(LongSupplier nanos) {
        this.nanos = nanos;
        this.start = nanos.getAsLong();
    }

    @Override public synchronized void runStarted(TrainingEvent.RunStarted e) {
        total = e.totalSteps();
        step = Math.max(0, e.resumeFrom() - 1);   // resumeFrom is the first step to run: 1 on a fresh run
        outRoot = e.outRoot();
        show(e.resumeFrom() > 1 ? "resumed" : "started", false);
    }

    @Override public synchronized void gateDecision(TrainingEvent.GateDecision e) {
        current = e.currentScore();
        best = e.bestScore();
    }

    @Override public synchronized void stepFinished(TrainingEvent.StepFinished e) {
        step = e.step();
        total = e.totalSteps();
        show(e.action(), false);
    }

    @Override public synchronized void epochFinished(TrainingEvent.EpochFinished e) {
        current = e.currentScore();
        best = e.bestScore();
        show("epoch " + e.epoch() + " done" + (e.slowUpdateAction() == null || e.slowUpdateAction().isEmpty() ? "" : ", slow update " + e.slowUpdateAction()), false);
    }

    @Override public synchronized void runFinished(TrainingEvent.RunFinished e) {
        if (e.summary().get("best_selection_hard") instanceof Number n) best = n.doubleValue();
        show(e.stopped() ? "stopped" : "finished", true);
    }

    /** Returns the progress as shown last (or now, before any event). */
    synchronized TrainingProgress progress(String action, boolean done) {
        return new TrainingProgress(step, total, action, current, best, (nanos.getAsLong() - start) / 1e9, outRoot, done);
    }

    private void show(String action, boolean done) {
        TrainingProgress p = progress(action, done);
        if (live == null) live = Display.live(p);
        else live.update(p);
    }
}
