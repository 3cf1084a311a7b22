package io.skillopt4j.notebook;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.run.TrainingProgress;
import io.skillopt4j.train.TrainingHandle;

import java.nio.file.Path;

/** Thread-safe. A training run going on in the background; {@code toString()} is the live view for a cell. */
public final class Training {
    private final TrainingHandle handle;

    Training(TrainingHandle handle) { this.handle = handle; }

    /** As the events told it, e.g. {@code training: step 3/8 accept_new_best · val 0.6 · best 0.6}. */
    public TrainingProgress progress() { return handle.progress(); }

    /** True once training finished, stopped or failed. */
    public boolean isDone() { return handle.isDone(); }

    /** Asks training to stop after the current step's writes; the folder stays resumable. */
    public Training stop() { handle.stop(); return this; }

    /** Waits for the end of training and returns the run (rethrows a training failure, unchecked). */
    public Run await() { return Runs.open(handle.await().outRoot()); }

    public Path outRoot() { return handle.outRoot(); }

    /** The run as written so far (may be incomplete). */
    public Run run() { return Runs.open(handle.outRoot()); }

    /** The progress with the scores the run folder holds so far (its {@code runtime_state.json}). */
    public TrainingProgress status() {
        double current = Double.NaN, best = Double.NaN;
        try {
            var rt = run().snapshot().runtimeState();
            if (rt.get("current_score") instanceof Number n) current = n.doubleValue();
            if (rt.get("best_score") instanceof Number n) best = n.doubleValue();
        } catch (RunFolderException e) {
            // nothing written yet: scores stay unknown
        }
        return progress().withKnown(current, best, isDone());
    }

    /** The live view: the status line, then the steps finished so far (notebooks: a progress bar and HTML table). */
    @Override public String toString() {
        String head = status().toString();
        try {
            return run().overview().toString().replaceFirst("\n", "\n" + head + "\n");
        } catch (RunFolderException e) {
            return "\n" + head; // nothing written yet
        }
    }
}
