package io.skillopt4j;

import java.util.Locale;

/**
 * Thrown before a model call whose worst-case cost would take the run past its dollar cap ({@code --budget_usd});
 * every later call of the run throws it too, and the trainer turns it into a stopped, resumable run.
 *
 * <p>An {@link Error}, as {@code ThreadDeath} is: the stages turn a {@code RuntimeException} around a model call into
 * a fallback or an errored row, which would let a budget stop pass for a finished step. Only the rollout driver (which
 * writes no row for the item) and the trainer catch it.
 */
public final class BudgetExceeded extends Error {
    private final double spent;
    private final double reserved;
    private final double cap;

    public BudgetExceeded(double spent, double reserved, double cap) {
        super(String.format(Locale.ROOT, "budget: stopped before the next model call: spent $%.4f + reserved $%.4f (that call's worst case) "
                + "would exceed the cap $%.4f; the run folder resumes: re-run with a higher --budget_usd", spent, reserved, cap),
                null, false, false);
        this.spent = spent;
        this.reserved = reserved;
        this.cap = cap;
    }

    /** USD charged so far, this and earlier sessions of the run folder. */
    public double spent() { return spent; }

    /** The worst case of the call not made. */
    public double reserved() { return reserved; }

    public double cap() { return cap; }
}
