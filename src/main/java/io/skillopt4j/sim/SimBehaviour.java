package io.skillopt4j.sim;

/**
 * Immutable. How imperfect the simulated models are: the target's slip rate and the analysts' rates of vague,
 * harmful, redundant and reinforcement edits. The defaults learn visibly while the gate still rejects some steps.
 */
public record SimBehaviour(double slipRate, double vagueRate, double harmRate, double redundantRate, double reinforceRate) {
    public SimBehaviour {
        check("slipRate", slipRate);
        check("vagueRate", vagueRate);
        check("harmRate", harmRate);
        check("redundantRate", redundantRate);
        check("reinforceRate", reinforceRate);
    }

    public static SimBehaviour defaults() { return new SimBehaviour(0.04, 0.20, 0.30, 0.20, 0.25); }

    /** A flawless simulator (no slips, always the canonical rule), for protocol tests. */
    public static SimBehaviour perfect() { return new SimBehaviour(0, 0, 0, 0, 0); }

    private static void check(String name, double v) {
        if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException(name + " must be in [0,1]: " + v);
    }
}
