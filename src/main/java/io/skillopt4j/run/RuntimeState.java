package io.skillopt4j.run;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.skillopt4j.internal.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Immutable. The resume pointer {@code runtime_state.json}: upstream's eight fields, then three that make a resumed run
 * identical to an uninterrupted one (docs/outputs.md), under snake_case names in this order.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RuntimeState(int lastCompletedStep, String currentSkillPath, double currentScore, String currentOrigin,
                           String bestSkillPath, double bestScore, int bestStep, String bestOrigin,
                           int schedulerStep, Double baselineSelectionHard, Double baselineSelectionSoft) {

    /** The file's fields in order, as Jackson writes this record, without a cold JVM's slow first bean serialization. */
    public Map<String, Object> toJson() {
        return Json.obj("last_completed_step", lastCompletedStep, "current_skill_path", currentSkillPath,
                "current_score", currentScore, "current_origin", currentOrigin, "best_skill_path", bestSkillPath,
                "best_score", bestScore, "best_step", bestStep, "best_origin", bestOrigin, "scheduler_step", schedulerStep,
                "baseline_selection_hard", baselineSelectionHard, "baseline_selection_soft", baselineSelectionSoft);
    }

    /** Reads {@code runtime_state.json} (Java or Python written); empty when absent or not a JSON object. */
    public static Optional<RuntimeState> read(Path file) {
        if (!Files.isRegularFile(file)) return Optional.empty();
        Object o;
        try { o = Json.read(file); } catch (RuntimeException e) { return Optional.empty(); }
        if (!(o instanceof Map<?, ?> m)) return Optional.empty();
        int last = (int) num(m.get("last_completed_step"), 0);
        double cur = num(m.get("current_score"), 0);
        // upstream reads a stored 0.0 as missing (float(value or -1.0)), re-running the baseline; our files keep it
        if (cur == 0 && !m.containsKey("scheduler_step")) cur = -1.0;
        double best = m.get("best_score") == null || num(m.get("best_score"), 0) == 0 ? cur : num(m.get("best_score"), cur);
        String curOrigin = str(m.get("current_origin"), last > 0 ? RunPaths.stepName(last) : "initial_skill");
        return Optional.of(new RuntimeState(last, str(m.get("current_skill_path"), ""), cur, curOrigin,
                str(m.get("best_skill_path"), ""), best, (int) num(m.get("best_step"), last),
                str(m.get("best_origin"), curOrigin), (int) num(m.get("scheduler_step"), last),
                m.get("baseline_selection_hard") == null ? null : num(m.get("baseline_selection_hard"), 0),
                m.get("baseline_selection_soft") == null ? null : num(m.get("baseline_selection_soft"), 0)));
    }

    private static double num(Object o, double def) {
        if (o instanceof Number n) return n.doubleValue();
        if (o instanceof String s) {
            try { return Double.parseDouble(s.trim()); } catch (NumberFormatException e) { return def; }
        }
        return def;
    }

    private static String str(Object o, String def) {
        return o == null || String.valueOf(o).isEmpty() ? def : String.valueOf(o);
    }
}
