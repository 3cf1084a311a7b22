package io.skillopt4j.run;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Immutable. Everything {@link RunReader} found in one run folder; absent files are empty, {@link #warnings()} names
 * them. {@code history} is sorted, one record per step; {@code skills} maps version numbers to texts.
 */
public record RunSnapshot(Path dir, Map<String, Object> config, Map<String, Object> summary,
                          Map<String, Object> runtimeState, List<Map<String, Object>> history,
                          List<Map<String, Object>> lrHistory, SortedMap<Integer, String> skills, String bestSkill,
                          List<StepArtifacts> steps, List<RolloutSet> rolloutSets, List<EpochArtifacts> epochs,
                          Map<String, Map<String, Object>> testSummaries, List<String> warnings) {
    public RunSnapshot {
        config = StepArtifacts.frozen(config);
        summary = StepArtifacts.frozen(summary);
        runtimeState = StepArtifacts.frozen(runtimeState);
        history = history == null ? List.of() : Collections.unmodifiableList(history);
        lrHistory = lrHistory == null ? List.of() : Collections.unmodifiableList(lrHistory);
        skills = Collections.unmodifiableSortedMap(new TreeMap<>(skills == null ? Map.of() : skills));
        bestSkill = bestSkill == null ? "" : bestSkill;
        steps = steps == null ? List.of() : List.copyOf(steps);
        rolloutSets = rolloutSets == null ? List.of() : List.copyOf(rolloutSets);
        epochs = epochs == null ? List.of() : List.copyOf(epochs);
        testSummaries = testSummaries == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(testSummaries));
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** Returns the folder name, which upstream builds from env, model and start time. */
    public String name() { return dir.getFileName() == null ? dir.toString() : dir.getFileName().toString(); }

    /** Returns the config value at a flat key (config.json, else summary.config), or null. */
    public Object configValue(String key) {
        Object v = config.get(key);
        if (v == null && summary.get("config") instanceof Map<?, ?> c) v = c.get(key);
        return v;
    }

    public int configInt(String key, int dflt) {
        Object v = configValue(key);
        if (v instanceof Number n) return n.intValue();
        if (v instanceof String s) {
            try { return Integer.parseInt(s.trim()); } catch (NumberFormatException e) { return dflt; }
        }
        return dflt;
    }

    public int plannedSteps() { return Math.max(0, configInt("steps_per_epoch", 0) * configInt("num_epochs", 0)); }

    /** Returns runtime_state.last_completed_step, else the last history step, else 0. */
    public int lastCompletedStep() {
        if (runtimeState.get("last_completed_step") instanceof Number n) return n.intValue();
        return history.isEmpty() ? 0 : ((Number) history.get(history.size() - 1).getOrDefault("step", 0)).intValue();
    }

    /** True when summary.json exists and every planned step completed (upstream-trainer §10). */
    public boolean finished() {
        return !summary.isEmpty() && (plannedSteps() == 0 || lastCompletedStep() >= plannedSteps());
    }

    /** Returns "finished", "stopped" (asked to stop; resumable), "incomplete" (in progress or killed) or "not started". */
    public String status() {
        if (Boolean.TRUE.equals(summary.get("stopped"))) return "stopped";
        if (finished()) return "finished";
        return history.isEmpty() && steps.isEmpty() ? "not started" : "incomplete";
    }

    /** Returns the step artefacts of {@code step}, or null. */
    public StepArtifacts step(int step) { return steps.stream().filter(s -> s.step() == step).findFirst().orElse(null); }
}
