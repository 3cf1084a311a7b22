package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.train.stats.Interval;
import io.skillopt4j.train.stats.PairedT;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe. The honest gate ({@code paired_bootstrap}): both skills on the same items, the candidate wins when
 * the {@link PairedT} lower bound is above 0. The reference is evaluated anew each time: the rows that accepted it
 * were selected for being high and would set an inflated bar.
 */
record PairedGate(TrainSettings s, SelectionEval selection, Gate gate) {
    /** Immutable. One comparison; {@code referenceScore} is NaN when the same skill was not evaluated again. */
    record Comparison(PairedT.Test test, int repeats, SelectionEval.Score candidate, double candidateScore, double referenceScore,
                      SelectionEval.Score reference, boolean unchanged) {
        boolean accepted() { return test.accepted(); }

        /** The record's new fields: gate_test, the mean gain with its interval, p-value, confidence, items, repeats. */
        Map<String, Object> fields() {
            Interval ci = test.interval();
            Map<String, Object> m = Json.obj("gate_test", GateSettings.PAIRED,
                    "gate_gain", Double.isNaN(ci.estimate()) ? null : StepRecord.round(ci.estimate(), 6),
                    "gate_interval", ci.bounds(), "gate_p_value", StepRecord.round(test.pValue(), 6),
                    "gate_confidence", StepRecord.round(ci.confidence(), 6), // of this look's bound (lookConfidence)
                    "gate_items", ci.items(), "gate_repeats", repeats,
                    "reference_gate_score", Double.isNaN(referenceScore) ? null : StepRecord.round(referenceScore, 6));
            if (unchanged) m.put("gate_skipped", "unchanged_candidate"); // same text as the reference: no evaluation
            return m;
        }
    }

    /** A step's honest gate (current skill into {@code selection_eval_current}); null when off. */
    static Comparison atStep(TrainSettings s, RunStages stages, String candidate, String current, Path stepDir) {
        if (!s.useGate() || !s.gateTest().paired()) return null;
        return new PairedGate(s, stages.selection(), stages.gate()).compare(candidate, stepDir.resolve("selection_eval"), current,
                stepDir.resolve("selection_eval_current"));
    }

    /** " gain +0.120 [0.020, 0.220] p=0.031 k=2" for a stage's progress line. */
    static String detail(Comparison c) {
        if (c.unchanged()) return " (unchanged candidate: rejected without evaluation)";
        Interval ci = c.test().interval();
        if (!ci.known()) return " (no item scored on both sides)";
        return String.format(java.util.Locale.ROOT, " gain %+.3f [%.3f, %.3f] p=%.3f k=%d", ci.estimate(), ci.low(), ci.high(), c.test().pValue(), c.repeats());
    }


    /** Compares {@code candidate} with {@code reference}; the same text is a reject with no call (cached score). */
    Comparison compare(String candidate, Path candidateDir, String reference, Path referenceDir) {
        GateSettings g = s.gateTest();
        int k = g.repeats();
        if (SkillDocument.hash(candidate).equals(SkillDocument.hash(reference))) {
            double[] c = selection.state().selCache.get(SkillDocument.hash(candidate));
            SelectionEval.Score sc = c != null ? new SelectionEval.Score(c[0], c[1], true)
                    : new SelectionEval.Score(selection.state().currentScore, 0.0, true);
            double v = gate.score(sc.hard(), sc.soft(), candidate);
            PairedT.Test none = new PairedT.Test(new Interval(0, 0, 0, lookConfidence(g), selection.size(), 0), 1.0, false);
            return new Comparison(none, 0, sc, v, v, sc, true);
        }
        SelectionEval.Rows cand = selection.rows(candidate, candidateDir, k);
        SelectionEval.Rows ref = selection.rows(reference, referenceDir, k);
        double perLook = lookConfidence(g);
        while (true) {
            PairedT.Test t = PairedT.test(diffs(cand, candidate, ref, reference), perLook);
            if (!g.adaptive() || k >= g.maxRepeats() || !t.interval().straddles(0)) {
                SelectionEval.Score sc = cand.score(false);
                SelectionEval.Score rs = ref.score(false);
                selection.state().selCache.putIfAbsent(SkillDocument.hash(candidate), new double[] {sc.hard(), sc.soft()});
                return new Comparison(t, k, sc, gate.score(sc.hard(), sc.soft(), candidate), gate.score(rs.hard(), rs.soft(), reference), rs, false);
            }
            k++;
            cand = selection.more(cand, candidate, candidateDir, k);
            ref = selection.more(ref, reference, referenceDir, k);
        }
    }

    /** Each look's confidence: {@code 1 − gate_confidence} split over the adaptive looks (Bonferroni). */
    static double lookConfidence(GateSettings g) {
        int looks = g.adaptive() ? g.maxRepeats() - g.repeats() + 1 : 1;
        return 1 - (1 - g.confidence()) / looks;
    }

    /** Per item scored on both sides, the candidate's r-th row's gate score minus the reference's, per repeat. */
    private double[][] diffs(SelectionEval.Rows cand, String candidate, SelectionEval.Rows ref, String reference) {
        List<double[]> out = new ArrayList<>();
        cand.items().forEach((id, rows) -> {
            List<RolloutResult> other = ref.items().getOrDefault(id, List.of());
            int k = Math.min(rows.size(), other.size());
            if (k == 0) return;
            double[] d = new double[k];
            for (int r = 0; r < k; r++) {
                RolloutResult a = rows.get(r), b = other.get(r);
                d[r] = gate.score(a.hard(), a.soft(), candidate) - gate.score(b.hard(), b.soft(), reference);
            }
            out.add(d);
        });
        return out.toArray(double[][]::new);
    }
}
