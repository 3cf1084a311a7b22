package io.skillopt4j.notebook;

import io.skillopt4j.internal.HtmlText;
import io.skillopt4j.frames.Decimals;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Immutable. Where a blocking {@code train()} is, as the cell shows it: {@code toString()} is one compact line
 * for plain JShell ({@code training: step 3/10 accept_new_best · val 0.6 · best 0.6 · 12 s}; the run folder on the
 * first and last line), and
 * notebooks render it as a progress bar updated in place (see {@link Display#live}).
 *
 * @param step        last finished step (0 before the first)
 * @param totalSteps  planned steps (0 when unknown)
 * @param action      gate action of the last step, or the epoch-end / run-end event
 * @param current     current skill's gate score, NaN before the baseline
 * @param best        best gate score so far, NaN before the baseline
 * @param seconds     wall time since training started, NaN when not measured
 * @param outRoot     the run folder
 * @param done        training ended (finished or stopped)
 */
public record TrainingProgress(int step, int totalSteps, String action, double current, double best, double seconds,
                               Path outRoot, boolean done) {
    public TrainingProgress {
        action = action == null ? "" : action;
    }

    /** Returns the finished fraction in [0, 1] (0 when the plan is unknown). */
    public double fraction() { return totalSteps <= 0 ? 0 : Math.min(1.0, (double) step / totalSteps); }

    @Override public String toString() {
        StringBuilder sb = new StringBuilder(done ? "done: " : "training: ")
                .append("step ").append(step).append('/').append(totalSteps);
        if (!action.isEmpty()) sb.append(' ').append(action);
        if (!Double.isNaN(current)) sb.append(" · val ").append(Decimals.of(current));
        if (!Double.isNaN(best)) sb.append(" · best ").append(Decimals.of(best));
        if (!Double.isNaN(seconds)) sb.append(" · ").append(String.format(Locale.ROOT, "%.0f s", seconds));
        // The folder on the first and last line only, so the per-step lines stay short.
        if (outRoot != null && (done || action.equals("started") || action.equals("resumed"))) sb.append(" · ").append(outRoot);
        return sb.toString();
    }

    /** A progress bar with the same line beside it. */
    String html() {
        int pct = (int) Math.round(100 * fraction());
        return "<div class=\"skillopt-progress\" style=\"font-family:monospace\"><progress max=\"100\" value=\"" + pct
                + "\" style=\"width:16em;vertical-align:middle\"></progress> " + HtmlText.escape(toString()) + "</div>";
    }
}
