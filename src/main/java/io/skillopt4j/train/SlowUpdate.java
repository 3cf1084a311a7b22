package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Not thread-safe. The slow update (upstream {@code slow_update.py}); {@code slow_result.json} marks an epoch done. */
record SlowUpdate(TrainSettings s, int stepsPerEpoch, Optimizer optimizer, Longitudinal longitudinal, SelectionEval selection, Gate gate,
                  RunState state, RunWriter writer, Clock clock) {
    /** Immutable. The action taken and the pairs built (null when none were built in this process). */
    record Result(String action, Longitudinal.Pairs pairs) {}

    static final String UPDATE_TARGET = "Address longitudinal regressions and persistent failures observed across adjacent epochs.";

    /** Runs epoch {@code epoch}'s slow update; {@code onPairs} gets the pairs before the call. */
    Result run(int epoch, int lastStep, java.util.function.Consumer<Longitudinal.Pairs> onPairs) {
        RunPaths p = writer.paths();
        Path dir = p.slowUpdate(epoch);
        Path marker = p.slowResult(epoch);
        if (Files.isRegularFile(marker)) return replay(epoch, marker);
        if (epoch == 1) {
            // no edit to judge: under the honest gate an equal best skill takes it too (docs/training.md)
            if (s.useGate() && s.gateTest().paired() && state.bestSkill.equals(state.currentSkill))
                state.bestSkill = SkillDocument.injectSlowPlaceholder(state.bestSkill);
            state.currentSkill = SkillDocument.injectSlowPlaceholder(state.currentSkill);
            state.currentOrigin = "slow_update_placeholder_epoch_01";
            commit(lastStep, marker, Json.obj("action", "inject_placeholder", "epoch", 1));
            return new Result("inject_placeholder", null);
        }
        long t0 = clock.millis();
        String prevSkill = Trajectories.readFile(p.skill((epoch - 1) * stepsPerEpoch));
        Longitudinal.Pairs pairs = longitudinal.build(epoch, prevSkill, state.currentSkill, dir);
        onPairs.accept(pairs);
        String existing = SkillDocument.slowUpdateContent(state.currentSkill);
        String user = "## Previous Epoch's Skill\n" + prevSkill + "\n\n## Current Epoch's Skill\n" + state.currentSkill
                + "\n\n## Previous Slow Update Guidance\n"
                + "This guidance was in force during the epoch that just ended; judge from the comparison below whether it "
                + "helped before you write its replacement.\n\n"
                + (existing.isEmpty() ? "(No previous guidance — this is the first slow update.)" : existing)
                + "\n\n## Longitudinal Comparison (same 20 tasks, two skill versions)\n" + Longitudinal.comparison(pairs.kept());
        Map<String, Object> reply = optimizer.json("slow_update", RunPaths.epochName(epoch), Prompts.generic("slow_update"), user).orElse(null);
        String content = MetaSkill.text(reply, "slow_update_content");
        Map<String, Object> out = new LinkedHashMap<>();
        if (content.isEmpty()) {
            if (reply != null) optimizer.record("slow_update", RunPaths.epochName(epoch), "no_content", "reply has no slow_update_content");
            Json.put(out, "action", "no_content", "time_s", StepRecord.round((clock.millis() - t0) / 1000.0, 1));
        } else {
            String candidate = SkillDocument.replaceSlowUpdateField(state.currentSkill, content);
            writer.artefactText(dir.resolve("candidate_skill.md"), candidate); // as a step's candidate: not read on resume, no disk flush
            Json.put(out, "reasoning", MetaSkill.text(reply, "reasoning"), "slow_update_content", content,
                    "time_s", StepRecord.round((clock.millis() - t0) / 1000.0, 1), "prev_hard", pairs.prevHard(),
                    "curr_hard", pairs.currHard(), "candidate_hash", SkillDocument.hash(candidate),
                    "update_origin", "slow_update_momentum", "update_target", UPDATE_TARGET);
            String origin = "slow_update_epoch_" + io.skillopt4j.internal.Decimals.padded(epoch, 2);
            if (s.slowUpdateGateWithSelection()) {
                PairedGate.Comparison paired = s.gateTest().paired() ? new PairedGate(s, selection, gate).compare(candidate,
                        dir.resolve("selection_eval"), state.currentSkill, dir.resolve("selection_eval_current")) : null;
                SelectionEval.Score sc = paired != null ? paired.candidate() : selection.score(candidate, dir.resolve("selection_eval"), null);
                double score = gate.score(sc.hard(), sc.soft(), candidate);
                Gate.Decision d = paired != null ? Gate.decidePaired(paired.accepted(), score, state.bestScore, state.currentSkill.equals(state.bestSkill))
                        : Gate.decide(score, state.currentScore, state.bestScore);
                Json.put(out, "action", d.action(), "selection_hard", sc.hard(), "selection_soft", sc.soft());
                if (paired != null) out.putAll(paired.fields()); // new fields, only with the honest gate
                if (d.accepted())
                    state.accept(candidate, d.candidateScore(), origin, lastStep, d.action().equals("accept_new_best"));
            } else {
                state.currentSkill = candidate;
                state.selCache.put(SkillDocument.hash(candidate), new double[] {state.currentScore, 0.0});
                state.currentOrigin = origin;
                out.put("action", "force_accept");
            }
        }
        commit(lastStep, marker, out);
        return new Result(String.valueOf(out.get("action")), pairs);
    }

    /** Both skills, runtime_state.json and then the epoch's marker, in one disk flush. */
    private void commit(int lastStep, Path marker, Map<String, Object> result) {
        RunPaths p = writer.paths();
        RunWriter.Batch b = writer.batch().text(p.skill(lastStep), state.currentSkill).text(p.bestSkill(), state.bestSkill);
        state.persist(b, p, lastStep).json(marker, result).commit();
    }

    /** A finished epoch: the marker is written last, so only a force-accepted guidance's cache entry is restored. */
    private Result replay(int epoch, Path marker) {
        Map<?, ?> m = Trajectories.readJson(marker) instanceof Map<?, ?> x ? x : Map.of();
        String action = String.valueOf(m.get("action"));
        if (action.equals("force_accept") && m.get("candidate_hash") instanceof String h
                && h.equals(SkillDocument.hash(state.currentSkill))) {
            state.selCache.putIfAbsent(h, new double[] {state.currentScore, 0.0});
        }
        // as upstream, a finished epoch's stored pairs feed the meta skill (slim: no trajectories); unreadable = none
        List<Map<String, Object>> stored = storedPairs(marker.getParent());
        return new Result(action, stored == null ? null : Longitudinal.reloaded(stored));
    }

    /** Reads the stored pairs of an epoch folder; null when absent or unreadable (upstream then samples afresh). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> storedPairs(Path dir) {
        return Trajectories.readJson(dir.resolve("comparison_pairs.json")) instanceof List<?> l ? (List<Map<String, Object>>) l : null;
    }
}
