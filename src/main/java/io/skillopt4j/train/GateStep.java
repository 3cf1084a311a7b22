package io.skillopt4j.train;

import io.skillopt4j.run.RunPaths;

/** Immutable. A step's evaluate-and-gate; an accepted candidate (always, gate off) becomes current. */
record GateStep(String action, double candidateScore, double scoreBefore, SelectionEval.Score score, PairedGate.Comparison paired) {
    /** Scores {@code candidate} and decides; {@code ahead} (may be null) sees the selection rows as they come. */
    static GateStep run(StepContext c, String candidate, TrainSettings s, RunStages stages, RunState st, GateAhead ahead) {
        StepRecord rec = c.rec();
        PairedGate.Comparison paired = PairedGate.atStep(s, stages, candidate, st.currentSkill, c.stepDir());
        SelectionEval.Score sc = paired != null ? paired.candidate()
                : stages.selection().score(candidate, c.stepDir().resolve("selection_eval"), ahead);
        rec.putAll("selection_hard", sc.hard(), "selection_soft", sc.soft());
        double cand = stages.gate().score(sc.hard(), sc.soft(), candidate);
        double scoreBefore = st.currentScore;
        String action;
        if (s.useGate()) {
            Gate.Decision d = paired != null ? Gate.decidePaired(paired.accepted(), cand, st.bestScore, st.currentSkill.equals(st.bestSkill))
                    : Gate.decide(cand, st.currentScore, st.bestScore);
            action = d.action();
            if (d.accepted()) st.accept(candidate, cand, RunPaths.stepName(c.step()), c.step(), action.equals("accept_new_best"));
        } else {
            action = "force_accept";
            st.accept(candidate, cand, RunPaths.stepName(c.step()), c.step(), cand > st.bestScore);
        }
        rec.putAll("gate_metric", s.gateMetric(), "candidate_gate_score", cand, "action", action);
        if (paired != null) paired.fields().forEach(rec::put); // new fields, only with the honest gate
        return new GateStep(action, cand, scoreBefore, sc, paired);
    }


    /** The evaluate stage's detail line: the action, whether the score came from the cache, the paired comparison. */
    String detail() { return action + (score.cached() ? " (cached)" : "") + (paired == null ? "" : PairedGate.detail(paired)); }
}
