package io.skillopt4j.frames;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.EpochArtifacts;
import io.skillopt4j.run.RunSnapshot;

import java.util.List;
import java.util.Map;

import static io.skillopt4j.frames.StepFrames.str;

/**
 * Stateless. The one "best val X at step N" every footer, summary, comparison and report prints, and the
 * steps-frame row for a best raised after the last step (upstream's final promotion or a gated slow update write
 * no history record), without which a footer saying 1.0 would sit over a {@code best_score} column topping at 0.8.
 */
final class Headline {
    /** The best skill as the run's files state it; any part may be null while a run is young. */
    record Best(Double score, Integer step, String origin, io.skillopt4j.train.stats.Interval interval) {}

    /** Actions of the row {@link #afterStepsRow} adds; every other steps row is a step record. */
    static final List<String> AFTER_STEPS_ACTIONS = List.of("final_promotion", "slow_update_accept", "slow_update_accept_new_best");

    private Headline() {}

    static Best best(RunSnapshot run) {
        Map<String, Object> s = run.summary();
        Map<String, Object> rt = run.runtimeState();
        Object score = s.containsKey("best_selection_hard") ? s.get("best_selection_hard") : rt.get("best_score");
        Object step = s.containsKey("best_step") ? s.get("best_step") : rt.get("best_step");
        Object origin = s.containsKey("best_origin") ? s.get("best_origin") : rt.get("best_origin");
        Double sc = score instanceof Number n ? n.doubleValue() : null;
        Integer st = step instanceof Number n ? n.intValue() : null;
        if (sc == null) {
            // No summary or runtime state yet (killed early): the best accepted candidate of the history.
            for (Map<String, Object> h : run.history()) {
                if (h.get("best_score") instanceof Number b && (sc == null || b.doubleValue() > sc)) {
                    sc = b.doubleValue();
                    st = h.get("best_step") instanceof Number n ? n.intValue() : StepFrames.intOf(h.get("step"));
                }
            }
        }
        String o = origin == null ? null : str(origin);
        return new Best(sc, st, o, sc == null ? io.skillopt4j.train.stats.Interval.none(io.skillopt4j.train.ScoreIntervals.CONFIDENCE)
                : Intervals.best(run, o, sc));
    }

    /** E.g. {@code best val 0.975 [0.93, 1.0] at step 7}, with an origin that is not a step; "" when unknown. */
    static String text(RunSnapshot run) {
        Best b = best(run);
        if (b.score() == null || b.step() == null) return "";
        String o = b.origin();
        boolean telling = o != null && !o.isBlank() && !o.startsWith("step_") && !o.equals("initial_skill");
        return "best val " + io.skillopt4j.internal.Decimals.shortest(b.score()) + Intervals.brackets(b.interval()) + " at step " + b.step()
                + (telling ? " (" + o + ")" : "");
    }

    static String suffix(RunSnapshot run) {
        String t = text(run);
        return t.isEmpty() ? "" : " · " + t;
    }

    /** The row for a best raised after the step records, or null when the history's best_score reaches it. */
    static Map<String, Object> afterStepsRow(RunSnapshot run) {
        Best b = best(run);
        List<Map<String, Object>> hist = run.history();
        if (b.score() == null || hist.isEmpty()) return null;
        double top = Double.NEGATIVE_INFINITY;
        for (Map<String, Object> h : hist) if (h.get("best_score") instanceof Number n) top = Math.max(top, n.doubleValue());
        if (b.score() <= top + 1e-12) return null;
        Map<String, Object> last = hist.get(hist.size() - 1);
        Map<String, Object> r = Json.obj("epoch", last.get("epoch"), "step", b.step() != null ? b.step() : last.get("step"),
                "action", "final_promotion");
        Object sel = run.summary().get("final_selection_hard");
        Object soft = run.summary().get("final_selection_soft");
        for (EpochArtifacts e : run.epochs()) {
            Map<String, Object> slow = e.slowResult();
            String a = str(slow.get("action"));
            if (a.startsWith("accept") && slow.get("selection_hard") instanceof Number n && Math.abs(n.doubleValue() - b.score()) < 1e-9) {
                Json.put(r, "epoch", e.epoch(), "action", "slow_update_" + a);
                sel = n;
                soft = slow.get("selection_soft");
            }
        }
        Json.put(r, "accepted", true, "new_best", true, "selection_hard", sel, "selection_soft", soft,
                "candidate_gate_score", b.score(), "current_score", b.score(), "best_score", b.score(), "best_step", b.step());
        return r;
    }
}
