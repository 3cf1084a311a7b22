package io.skillopt4j;

import java.util.Locale;

/**
 * Thrown when model calls failed after any retries on more of a stage's rollout items or analyst calls than
 * {@code train.max_errored_fraction} allows, or on any other optimizer call. Nothing of the step is recorded; the
 * trainer turns it into a stopped run that the same command resumes (errored items are attempted again).
 *
 * <p>An {@link Error} for the reason {@link BudgetExceeded} is one; only the trainer (and the CLI's eval) catch it.
 */
public final class ErroredHalt extends Error {
    private final String stage;
    private final int errored;
    private final int total;
    private final String reason;
    private final int notStarted;

    public ErroredHalt(String stage, int errored, int total, String reason) {
        this(stage, errored, total, 0, reason);
    }

    /** A halt that came before {@code notStarted} of the inputs were tried: the stage stopped as soon as it had to. */
    public ErroredHalt(String stage, int errored, int total, int notStarted, String reason) {
        super(line(stage, errored, total, notStarted, reason), null, false, false);
        this.stage = stage;
        this.errored = errored;
        this.total = total;
        this.notStarted = notStarted;
        this.reason = reason == null ? "" : reason;
    }

    /** The halt of a rollout: {@code firstReason} is its first errored row's fail_reason, {@code file} holds those rows. */
    public static ErroredHalt rollout(int errored, int total, int notStarted, String firstReason, java.nio.file.Path file) {
        return new ErroredHalt("rollout", errored, total, notStarted, firstReason.replaceFirst("^errored: ", "") + " (" + file + ")");
    }

    /** The stage whose inputs errored: {@code rollout}, {@code analyst}, {@code merge}, ... */
    public String stage() { return stage; }

    public int errored() { return errored; }

    public int total() { return total; }

    /** The first failure's reason, as the backend gave it. */
    public String reason() { return reason; }

    /** Inputs never tried because the stage stopped anyway; they run when the run resumes. */
    public int notStarted() { return notStarted; }

    private static String line(String stage, int errored, int total, int notStarted, String reason) {
        String r = reason == null ? "" : reason.replaceAll("\\s+", " ").trim();
        if (r.length() > 300) r = r.substring(0, 300) + "...";
        String what = stage.equals("rollout") ? "items" : "calls";
        return String.format(Locale.ROOT, "errored: %d of %d %s %s failed%s (first: %s); nothing of this step was recorded: "
                + "run the same command again to resume once the provider is back", errored, total, stage, what,
                notStarted > 0 ? ", " + notStarted + " not started" : "", r.isEmpty() ? "no reason given" : r);
    }
}
