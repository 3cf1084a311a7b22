package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunWriter;

import java.util.List;
import java.util.Map;

/** Immutable. A step's select (upstream's learning-rate control and {@code rank_and_select}): budget, then ranking. */
record EditSelection(Map<String, Object> ranked, List<Object> rankedItems, Integer budget, String lrMode) {
    /** Decides the budget and ranks {@code merged}; writes {@code lr_decision.json}, the lr history line, {@code ranked_edits.json}. */
    static EditSelection run(StepContext c, Map<String, Object> merged, TrainSettings s, RunStages stages, RunState st, RunWriter w) {
        StepRecord rec = c.rec();
        Map<String, Object> ranked;
        Integer budget = null;
        Map<String, Object> decision = null;
        String lrMode = s.lrControlMode();
        if (s.updateMode() == UpdateMode.FULL_REWRITE) {
            ranked = merged;
            lrMode = "none";
        } else {
            if (lrMode.equals("autonomous")) {
                decision = stages.select().decideBudget(st.currentSkill, merged, (double) rec.get("rollout_hard"),
                        (double) rec.get("rollout_soft"), (int) rec.get("rollout_n"), st.stepBuffer.format(), c.meta());
                w.artefact(c.stepDir().resolve("lr_decision.json"), decision);
                Map<String, Object> line = Json.obj("step", c.step(), "epoch", c.epoch());
                line.putAll(decision);
                w.jsonLine(w.paths().lrHistory(), line);
                budget = (Integer) decision.get("learning_rate");
            } else {
                budget = st.schedule.next();
            }
            ranked = stages.select().rank(st.currentSkill, merged, budget, c.meta());
        }
        w.artefact(c.stepDir().resolve("ranked_edits.json"), ranked);
        List<Object> rankedItems = Aggregate.items(ranked, s.updateMode().payloadKey());
        rec.putAll("n_edits_ranked", rankedItems.size(), "edit_budget", budget, "lr_control_mode", lrMode);
        if (decision != null) rec.put("lr_decision", decision);
        // as upstream: each dict item's support_count as the reply gave it (0 when absent), non-dict items skipped
        rec.put("support_counts", rankedItems.stream().filter(o -> o instanceof Map<?, ?>).map(o -> (Map<?, ?>) o)
                .map(m -> m.containsKey("support_count") ? m.get("support_count") : 0).toList());
        return new EditSelection(ranked, rankedItems, budget, lrMode);
    }
}
