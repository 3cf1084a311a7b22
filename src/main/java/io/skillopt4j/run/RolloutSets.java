package io.skillopt4j.run;

import io.skillopt4j.env.RolloutResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Stateless. Finds and labels every adapter rollout directory of a run (upstream-trainer §6.1, §6.6). */
final class RolloutSets {
    private RolloutSets() {}

    static List<RolloutSet> discover(RunSnapshot run, TolerantFiles f) {
        Path dir = run.dir();
        List<RolloutSet> out = new ArrayList<>();
        int last = run.history().isEmpty() ? run.lastCompletedStep() : stepOf(run.history().get(run.history().size() - 1));
        add(out, f, dir.resolve("selection_eval_baseline"), "selection_baseline", "val", 0, 0, null);
        add(out, f, dir.resolve("test_eval_baseline"), "test_baseline", "test", 0, 0, null);
        for (StepArtifacts s : run.steps()) {
            Integer epoch = epochOf(run, s.step());
            List<Path> batches = RunReader.children(s.dir(), RunReader.BATCH_DIR);
            Path rows = s.dir().resolve("rollout/results.jsonl");
            // a recorded step ran its rollout: its rows are missing, not absent
            if (batches.isEmpty() && !s.record().isEmpty() && !Files.isRegularFile(rows)) f.missing(rows);
            if (batches.isEmpty()) add(out, f, s.dir().resolve("rollout"), "train", "train", epoch, s.step(), null);
            for (Path b : batches) {
                add(out, f, b.resolve("rollout"), "train", "train", epoch, s.step(), RunReader.number(b, RunReader.BATCH_DIR));
            }
            add(out, f, s.dir().resolve("selection_eval"), "selection", "val", epoch, s.step(), null);
        }
        for (String stage : List.of("slow_update", "meta_skill")) {
            for (Path e : RunReader.children(dir.resolve(stage), RunReader.EPOCH_DIR)) {
                int epoch = RunReader.number(e, RunReader.EPOCH_DIR);
                Integer step = epochEndStep(run, epoch);
                add(out, f, e.resolve("rollout_prev"), stage + "_prev", "train", epoch, step, null);
                add(out, f, e.resolve("rollout_curr"), stage + "_curr", "train", epoch, step, null);
                for (Path p : f.list(e.resolve("rollout_curr").resolve("topup"), Files::isDirectory)) {
                    add(out, f, p, stage + "_curr", "train", epoch, step, null);
                }
                if (!stage.equals("slow_update")) continue;
                add(out, f, e.resolve("selection_eval"), stage + "_selection", "val", epoch, step, null);
            }
        }
        Integer lastEpoch = last > 0 ? epochOf(run, last) : null;
        add(out, f, dir.resolve("final_selection_eval"), "final_selection", "val", lastEpoch, last, null);
        Integer best = bestStep(run);
        add(out, f, dir.resolve("test_eval"), "test", "test", best == null ? null : epochOf(run, best), best, null);
        add(out, f, dir.resolve("test_eval_final"), "test_final", "test", lastEpoch, last, null);
        return out;
    }

    private static void add(List<RolloutSet> out, TolerantFiles f, Path dir, String phase, String split, Integer epoch,
                            Integer step, Integer batch) {
        if (!Files.isDirectory(dir)) return;
        List<RolloutResult> rs = f.jsonl(dir.resolve("results.jsonl"), false).stream().map(RolloutResult::fromJson).toList();
        // a directory without results.jsonl may still hold traces (an exec target that was killed)
        if (!rs.isEmpty() || Files.isDirectory(dir.resolve("predictions"))) {
            out.add(new RolloutSet(phase, split, epoch, step, batch, dir, rs));
        }
    }

    static int stepOf(Map<String, Object> rec) {
        return rec.get("step") instanceof Number n ? n.intValue() : 0;
    }

    static Integer epochOf(RunSnapshot run, int step) {
        for (Map<String, Object> h : run.history()) {
            if (stepOf(h) == step && h.get("epoch") instanceof Number n) return n.intValue();
        }
        int spe = run.configInt("steps_per_epoch", 0);
        return spe > 0 && step > 0 ? (step - 1) / spe + 1 : null;
    }

    private static Integer epochEndStep(RunSnapshot run, int epoch) {
        Integer end = null;
        for (Map<String, Object> h : run.history()) {
            if (h.get("epoch") instanceof Number n && n.intValue() == epoch) end = stepOf(h);
        }
        int spe = run.configInt("steps_per_epoch", 0);
        return end != null ? end : spe > 0 ? epoch * spe : null;
    }

    private static Integer bestStep(RunSnapshot run) {
        if (run.summary().get("best_step") instanceof Number n) return n.intValue();
        if (run.runtimeState().get("best_step") instanceof Number n) return n.intValue();
        return null;
    }
}
