package io.skillopt4j.notebook;

import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import io.skillopt4j.run.TrainingProgress;

import java.util.function.LongSupplier;

/**
 * Thread-safe (events arrive on the training thread, the first display on the caller's). The progress of a
 * blocking {@code train()} in a cell: one output replaced in place, or one line per step in plain JShell.
 */
final class CellProgress implements TrainingListener {
    private final LongSupplier nanos;
    private final long start;
    private Display.Live live;
    private TrainingProgress progress = TrainingProgress.none();

    CellProgress(LongSupplier nanos) {
        this.nanos = nanos;
        this.start = nanos.getAsLong();
    }

    @Override public synchronized void on(TrainingEvent e) {
        progress = progress.next(e);
        if (!TrainingProgress.shown(e)) return;
        TrainingProgress p = progress();
        if (live == null) live = Display.live(p);
        else live.update(p);
    }

    /** As shown last (or now, before any event), with the time since the cell started. */
    synchronized TrainingProgress progress() { return progress.withSeconds((nanos.getAsLong() - start) / 1e9); }
}
