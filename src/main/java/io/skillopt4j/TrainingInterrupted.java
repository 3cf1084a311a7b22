package io.skillopt4j;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;

/**
 * The thread running a training or an evaluation was interrupted (a notebook's interrupt button): the run stopped like
 * a killed one and the same call made again resumes. The thread's interrupt flag stays set.
 */
public final class TrainingInterrupted extends SkillOptException {
    private final transient Path folder;

    public TrainingInterrupted(Path folder) {
        this(folder, "training interrupted: " + folder + " keeps every finished step; start the same training again to resume");
    }

    private TrainingInterrupted(Path folder, String message) {
        super(message);
        this.folder = folder;
    }

    /** The run folder, to open or resume. */
    public Path folder() { return folder; }

    /**
     * Returns what a training that failed with {@code e} throws: this exception when the failure was the thread's
     * interruption (its flag set, or an interrupted wait or channel in the causes), else {@code e} itself.
     */
    public static RuntimeException of(RuntimeException e, Path folder) {
        return !interrupted(e) || e instanceof TrainingInterrupted ? e : new TrainingInterrupted(folder);
    }

    /** As {@link #of}, for an evaluation ({@code skillopt eval}, {@code SkillOpt.evaluator(…).run()}) into {@code folder}. */
    public static RuntimeException ofEvaluation(RuntimeException e, Path folder) {
        return !interrupted(e) || e instanceof TrainingInterrupted ? e : new TrainingInterrupted(folder, "evaluation interrupted: "
                + folder + " keeps every finished item; start the same evaluation again to resume");
    }

    /** Sets the flag again when {@code e} is the thread's interruption. */
    private static boolean interrupted(RuntimeException e) {
        boolean interrupted = e instanceof TrainingInterrupted || Thread.currentThread().isInterrupted();
        for (Throwable c = e; c != null && !interrupted; c = c.getCause()) {
            interrupted = c instanceof InterruptedException || c instanceof ClosedByInterruptException || c instanceof InterruptedIOException;
        }
        if (interrupted) Thread.currentThread().interrupt();
        return interrupted;
    }
}
