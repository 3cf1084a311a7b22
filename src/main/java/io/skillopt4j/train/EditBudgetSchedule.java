package io.skillopt4j.train;

import io.skillopt4j.ConfigException;

import java.util.Locale;

/** Not thread-safe; one per run. Upstream's edit-budget ("learning rate") scheduler, with Python's rounding. */
public final class EditBudgetSchedule {
    public static final int AUTONOMOUS_CAP = 999;
    private final String mode;
    private final int max;
    private final int min;
    private final int totalSteps;
    private int current;

    public EditBudgetSchedule(String mode, int max, int min, int totalSteps) {
        String m = mode == null || mode.isBlank() ? "constant" : mode.trim().toLowerCase(Locale.ROOT);
        if (!java.util.List.of("constant", "linear", "cosine", "autonomous").contains(m))
            throw ConfigException.badValue("", "lr_scheduler", mode, "one of constant, linear, cosine, autonomous");
        this.mode = m;
        this.max = max;
        this.min = min;
        this.totalSteps = totalSteps;
    }

    /** Returns the budget for 1-based scheduler step {@code t} without advancing. */
    public int budget(int t) {
        if (mode.equals("autonomous")) return AUTONOMOUS_CAP;
        if (mode.equals("constant") || totalSteps <= 1) return max;
        double u = (double) Math.min(t, totalSteps) / totalSteps;
        double v = mode.equals("linear") ? max + (min - max) * u : min + 0.5 * (max - min) * (1 + Math.cos(Math.PI * u));
        return Math.max(min, (int) Math.rint(v));
    }

    public int next() { return budget(++current); }

    /** Returns the number of steps taken so far (upstream's {@code state_dict.current_step}). */
    public int current() { return current; }

    /** Sets the counter (resume). */
    public void reset(int step) { current = step; }
}
