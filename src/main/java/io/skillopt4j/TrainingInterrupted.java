package io.skillopt4j;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;

/**
 * The thread running a training was interrupted (a notebook's interrupt button): the run stopped like a killed one and
 * the same training started again resumes. The thread's interrupt flag stays set.
 */
public final class TrainingInterrupted extends SkillOptException {
    private final transient Path folder;

    public TrainingInterrupted(Path folder) {
        super("training interrupted: " + folder + " keeps every finished step; start the same training again to resume");
        this.folder = folder;
    }

    /** The run folder, to open or resume. */
    public Path folder() { return folder; }

    /**
     * Returns what a training that failed with {@code e} throws: this exception when the failure was the thread's
     * interruption (its flag set, or an interrupted wait or channel in the causes), else {@code e} itself.
     */
    public static RuntimeException of(RuntimeException e, Path folder) {
        boolean interrupted = e instanceof TrainingInterrupted || Thread.currentThread().isInterrupted();
        for (Throwable c = e; c != null && !interrupted; c = c.getCause()) {
            interrupted = c instanceof InterruptedException || c instanceof ClosedByInterruptException || c instanceof InterruptedIOException;
        }
        if (!interrupted) return e;
        Thread.currentThread().interrupt();
        return e instanceof TrainingInterrupted ? e : new TrainingInterrupted(folder);
    }
}
