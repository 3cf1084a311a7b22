package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RuntimeState;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Stateless. Restores a run from {@code runtime_state.json}, else a legacy {@code history.json} (upstream §2.4). */
final class Resume {
    private Resume() {}

    /** Fills {@code st}: skills, scores, history and the scheduler; returns the first step to run. */
    static int restore(RunState st, RunPaths paths) {
        String initial = st.initialSkill;
        List<Map<String, Object>> history = readHistory(paths.history());
        Optional<RuntimeState> rs = RuntimeState.read(paths.runtimeState());
        int last;
        if (rs.isPresent()) {
            RuntimeState r = rs.get();
            last = r.lastCompletedStep();
            st.currentSkill = readSkill(paths.skill(last), Path.of(r.currentSkillPath().isEmpty() ? "-" : r.currentSkillPath()), initial);
            Path best = Path.of(r.bestSkillPath().isEmpty() ? "-" : r.bestSkillPath());
            st.bestSkill = readSkill(paths.bestSkill(), best, st.currentSkill);
            st.currentScore = r.currentScore();
            st.bestScore = r.bestScore();
            st.bestStep = r.bestStep();
            st.currentOrigin = r.currentOrigin();
            st.bestOrigin = r.bestOrigin();
            st.baselineHard = r.baselineSelectionHard();
            st.baselineSoft = r.baselineSelectionSoft();
            st.schedule.reset(r.schedulerStep());
        } else if (!history.isEmpty()) {
            Map<String, Object> lastRec = history.get(history.size() - 1);
            last = num(lastRec.get("step"), 0).intValue();
            st.currentSkill = readSkill(paths.skill(last), paths.skill(last), initial);
            Map<String, Object> bestRec = lastRec;
            for (Map<String, Object> h : history) if (num(h.get("best_score"), -1).doubleValue() > num(bestRec.get("best_score"), -1).doubleValue()) bestRec = h;
            int bestStepRec = num(bestRec.get("step"), last).intValue();
            st.bestSkill = Files.isRegularFile(paths.bestSkill()) ? Trajectories.readFile(paths.bestSkill()) : readSkill(paths.skill(bestStepRec), paths.skill(last), initial);
            st.currentScore = num(lastRec.get("current_score"), -1).doubleValue();
            st.bestScore = num(bestRec.get("best_score"), st.currentScore).doubleValue();
            st.bestStep = num(bestRec.get("best_step"), last).intValue();
            st.currentOrigin = last > 0 ? RunPaths.stepName(last) : "initial_skill";
            st.bestOrigin = st.currentOrigin;
            st.schedule.reset(last);
        } else {
            st.currentSkill = initial;
            st.bestSkill = initial;
            return 1;
        }
        int lastStep = last;
        history.removeIf(h -> num(h.get("step"), 0).intValue() > lastStep);
        st.history.addAll(history);
        for (Map<String, Object> h : history) {
            if (h.get("candidate_hash") instanceof String hash && h.get("selection_hard") instanceof Number hard) {
                double soft = h.get("selection_soft") instanceof Number n ? n.doubleValue() : 0.0;
                st.selCache.put(hash, new double[] {hard.doubleValue(), soft});
            }
        }
        if (st.baselineHard != null) {
            st.selCache.putIfAbsent(SkillDocument.hash(initial), new double[] {st.baselineHard, st.baselineSoft == null ? 0 : st.baselineSoft});
        }
        return last + 1;
    }

    /** Re-adds the trajectory digests of steps {@code from..to} (inclusive) to the buffer. */
    @SuppressWarnings("unchecked")
    static void restoreStepBuffer(StepBuffer buffer, RunPaths paths, int from, int to) {
        for (int step = from; step <= to; step++) {
            // an unreadable digest only loses context for the analysts
            if (Trajectories.readJson(paths.step(step).resolve("trajectory_digest.json")) instanceof Map<?, ?> m)
                buffer.add((Map<String, Object>) m);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> readHistory(Path f) {
        // keep the last record per step, in step order
        Map<Integer, Map<String, Object>> byStep = new java.util.TreeMap<>();
        if (!Files.isRegularFile(f)) return new ArrayList<>();
        try {
            if (Json.read(f) instanceof List<?> l) for (Object o : l)
                if (o instanceof Map<?, ?> m) byStep.put(num(m.get("step"), 0).intValue(), (Map<String, Object>) m);
        } catch (RuntimeException e) {
            throw new io.skillopt4j.RunFolderException(f + " is not readable JSON: " + e.getMessage());
        }
        return new ArrayList<>(byStep.values());
    }

    private static String readSkill(Path preferred, Path fallback, String initial) {
        if (Files.isRegularFile(preferred)) return Trajectories.readFile(preferred);
        if (Files.isRegularFile(fallback)) return Trajectories.readFile(fallback);
        return initial;
    }

    private static Number num(Object o, double def) { return o instanceof Number n ? n : def; }
}
