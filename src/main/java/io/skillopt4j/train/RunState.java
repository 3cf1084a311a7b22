package io.skillopt4j.train;

import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.RuntimeState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe; owned by the training thread. The mutable state of a run: current and best skill with
 * their metric-space scores and origins, the selection cache (skill hash → raw hard/soft), the baseline
 * selection scores, the history records, the epoch's step buffer and the edit-budget schedule.
 * {@link #persist} writes {@code runtime_state.json}.
 */
final class RunState {
    final String initialSkill;
    String currentSkill;
    double currentScore = -1.0;
    String currentOrigin = "initial_skill";
    String bestSkill;
    double bestScore = -1.0;
    int bestStep;
    String bestOrigin = "initial_skill";
    Double baselineHard;
    Double baselineSoft;
    final Map<String, double[]> selCache = new HashMap<>();
    /** The completed steps' history.json records, in step order. */
    final List<Map<String, Object>> history = new ArrayList<>();
    final StepBuffer stepBuffer = new StepBuffer();
    final EditBudgetSchedule schedule;

    RunState(String initialSkill, EditBudgetSchedule schedule) {
        this.initialSkill = initialSkill;
        this.schedule = schedule;
    }

    /** Writes runtime_state.json pointing at skills/skill_v{lastStep}.md. */
    void persist(RunWriter w, int lastStep) {
        RunWriter.Batch b = w.batch();
        persist(b, w.paths(), lastStep);
        b.commit();
    }

    /** Adds runtime_state.json to {@code b} (see {@link #persist(RunWriter, int)}). */
    void persist(RunWriter.Batch b, RunPaths p, int lastStep) {
        b.json(p.runtimeState(), new RuntimeState(lastStep, p.skill(lastStep).toString(), currentScore, currentOrigin,
                p.bestSkill().toString(), bestScore, bestStep, bestOrigin, schedule.current(), baselineHard, baselineSoft));
    }

    /** The last completed step per history, 0 before the first. */
    Object lastCompletedStep() { return history.isEmpty() ? 0 : history.get(history.size() - 1).get("step"); }
}
