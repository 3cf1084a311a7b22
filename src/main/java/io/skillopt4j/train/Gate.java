package io.skillopt4j.train;

/** Immutable. The gate (upstream {@code evaluation/gate.py}): the score in the configured metric and the decision. */
public record Gate(TrainSettings settings) {
    /** Immutable. The action (accept_new_best, accept, reject) and the candidate's metric-space score. */
    public record Decision(String action, double candidateScore) {
        public boolean accepted() { return action.startsWith("accept"); }
    }


    /** Upstream's {@code select_gate_score}. */
    public double score(double hard, double soft, String skill) {
        double w = Math.max(0, Math.min(1, settings.gateMixedWeight()));
        double v = switch (settings.gateMetric()) {
            case "soft" -> soft;
            case "mixed" -> (1 - w) * hard + w * soft;
            default -> hard;
        };
        if (settings.useDensity())
            v += settings.densityWeight() * SkillDocument.density(skill == null ? "" : skill, settings.leadingWords());
        return v;
    }

    /** The honest gate's verdict; new best when the current skill is the best (tested against it) or beaten. */
    public static Decision decidePaired(boolean accepted, double candidate, double best, boolean currentIsBest) {
        if (!accepted) return new Decision("reject", candidate);
        return new Decision(currentIsBest || candidate > best ? "accept_new_best" : "accept", candidate);
    }

    /** Upstream's {@code evaluate_gate}: strictly greater than current to accept, than best for a new best. */
    public static Decision decide(double candidate, double current, double best) {
        if (candidate > current) return new Decision(candidate > best ? "accept_new_best" : "accept", candidate);
        return new Decision("reject", candidate);
    }
}
