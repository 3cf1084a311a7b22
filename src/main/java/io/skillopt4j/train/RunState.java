package io.skillopt4j.train;

import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.RuntimeState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Not thread-safe; owned by the training thread. A run's mutable state; selCache: skill hash → raw hard/soft. */
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

    /** Makes {@code skill} the current skill and, when {@code newBest}, the best one as of {@code step}. */
    void accept(String skill, double score, String origin, int step, boolean newBest) {
        currentSkill = skill;
        currentScore = score;
        currentOrigin = origin;
        if (!newBest) return;
        bestSkill = skill;
        bestScore = score;
        bestStep = step;
        bestOrigin = origin;
    }

    /** Writes runtime_state.json on a daemon thread; the next write of it waits ({@link #settle}). */
    void persistBehind(RunWriter w, int lastStep) {
        RunWriter.Batch b = persist(w.batch(), w.paths(), lastStep); // the state as it is now, serialised here
        behind = java.util.concurrent.CompletableFuture.runAsync(b::commit, ThreadPerTask.named("skillopt-commit"));
    }

    /** Waits for a {@link #persistBehind} write, rethrowing its failure. */
    void settle() {
        java.util.concurrent.CompletableFuture<Void> f = behind;
        behind = null;
        if (f != null) Reflect.join(f);
    }

    private java.util.concurrent.CompletableFuture<Void> behind; // training thread only

    /** Adds runtime_state.json (at skill_v{lastStep}.md) to {@code b}, after a write of it still running; returns {@code b}. */
    RunWriter.Batch persist(RunWriter.Batch b, RunPaths p, int lastStep) {
        settle();
        return b.json(p.runtimeState(), new RuntimeState(lastStep, p.skill(lastStep).toString(), currentScore, currentOrigin,
                p.bestSkill().toString(), bestScore, bestStep, bestOrigin, schedule.current(), baselineHard, baselineSoft).toJson());
    }

    /** The last completed step per history, 0 before the first. */
    Object lastCompletedStep() { return history.isEmpty() ? 0 : history.get(history.size() - 1).get("step"); }
}
