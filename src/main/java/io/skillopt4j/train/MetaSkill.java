package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** Not thread-safe. The meta skill (upstream {@code meta_skill.py}): the optimizer's notes to itself. */
record MetaSkill(Optimizer optimizer, Longitudinal longitudinal, RunWriter writer, Clock clock, int stepsPerEpoch) {
    private static final String INTRO = "The following notes were written by the optimizer itself at the end of the "
            + "previous epoch, from comparing two skill versions on the same tasks. Use them as strategy for how to edit "
            + "this skill; they are not part of the skill and must not be copied into it.";

    /** Wraps meta-skill content as the "## Optimizer Meta Skill" context block. */
    static String context(String content) {
        return "## Optimizer Meta Skill\n" + INTRO + "\n\n" + content.strip();
    }

    /** Returns the stored meta skill of {@code epoch} (stripped), or "" when missing or unreadable. */
    static String stored(RunPaths p, int epoch) {
        return epoch <= 0 ? "" : text(Trajectories.readJson(p.metaSkillResult(epoch)), "meta_skill_content");
    }

    /** A reply's or a result file's {@code key}, stripped; "" when it or the map is missing. */
    static String text(Object reply, String key) {
        return reply instanceof Map<?, ?> m && m.get(key) != null ? String.valueOf(m.get(key)).strip() : "";
    }

    /** Runs the epoch-end meta-skill update; {@code slowPairs} is null when the slow update gave none. Returns the action. */
    String run(int epoch, String epochLastStepSkill, Longitudinal.Pairs slowPairs) { return run(epoch, epochLastStepSkill, slowPairs, () -> {}); }

    /** As {@link #run(int, String, Longitudinal.Pairs)}, running {@code beforeWrite} before the marker is written. */
    String run(int epoch, String epochLastStepSkill, Longitudinal.Pairs slowPairs, Runnable beforeWrite) {
        RunPaths p = writer.paths();
        Path dir = p.metaSkill(epoch);
        Path marker = p.metaSkillResult(epoch);
        if (Files.isRegularFile(marker))
            return Trajectories.readJson(marker) instanceof Map<?, ?> m ? String.valueOf(m.get("action")) : "unknown";
        if (epoch == 1) {
            beforeWrite.run();
            writer.json(marker, Json.obj("action", "skip_first_epoch", "epoch", 1));
            return "skip_first_epoch";
        }
        long t0 = clock.millis();
        String prevSkill = Trajectories.readFile(p.skill((epoch - 1) * stepsPerEpoch));
        // upstream reuses the slow update's pairs whenever it produced or reloaded some, even an empty list
        Longitudinal.Pairs pairs = slowPairs != null ? slowPairs : longitudinal.build(epoch, prevSkill, epochLastStepSkill, dir);
        String prevMeta = stored(p, epoch - 1);
        String user = "## Previous Epoch's Last-Step Skill\n" + prevSkill + "\n\n## Current Epoch's Last-Step Skill\n" + epochLastStepSkill
                + "\n\n## Previous Meta Skill\n"
                + "These optimizer notes were available throughout the epoch that just ended; judge whether the edits made "
                + "under them got better or worse.\n\n" + (prevMeta.isEmpty() ? "(No previous meta skill — this is the first meta-skill update.)" : prevMeta)
                + "\n\n## Longitudinal Comparison (same 20 tasks, two skill versions)\n" + Longitudinal.comparison(pairs.kept());
        Map<String, Object> reply = optimizer.json("meta_skill", RunPaths.epochName(epoch), Prompts.generic("meta_skill"), user).orElse(null);
        String content = text(reply, "meta_skill_content");
        double time = StepRecord.round((clock.millis() - t0) / 1000.0, 1);
        Map<String, Object> out;
        if (content.isEmpty()) {
            if (reply != null) optimizer.record("meta_skill", RunPaths.epochName(epoch), "no_content", "reply has no meta_skill_content");
            out = Json.obj("time_s", time, "action", "no_content");
        } else {
            out = Json.obj("reasoning", text(reply, "reasoning"), "meta_skill_content", content,
                    "time_s", time, "action", "write_meta_skill");
        }
        beforeWrite.run();
        writer.json(marker, out);
        return String.valueOf(out.get("action"));
    }
}
