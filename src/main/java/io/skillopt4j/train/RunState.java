package io.skillopt4j.train;

import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.RuntimeState;

import java.util.HashMap;
import java.util.Map;

/**
 * Not thread-safe; owned by the training thread. The mutable state of a run: current and best skill with
 * their metric-space scores and origins, the selection cache (skill hash → raw hard/soft) and the baseline
 * selection scores. {@link #persist} writes {@code runtime_state.json}.
 */
final class RunState {
    String initialSkill;
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

    /** Writes runtime_state.json pointing at skills/skill_v{lastStep}.md. */
    void persist(RunWriter w, int lastStep, int schedulerStep) {
        RunWriter.Batch b = w.batch();
        persist(b, w.paths(), lastStep, schedulerStep);
        b.commit();
    }

    /** Adds runtime_state.json to {@code b} (see {@link #persist(RunWriter, int, int)}). */
    void persist(RunWriter.Batch b, RunPaths p, int lastStep, int schedulerStep) {
        b.json(p.runtimeState(), new RuntimeState(lastStep, p.skill(lastStep).toString(), currentScore, currentOrigin,
                p.bestSkill().toString(), bestScore, bestStep, bestOrigin, schedulerStep, baselineHard, baselineSoft).toJson());
    }
}
