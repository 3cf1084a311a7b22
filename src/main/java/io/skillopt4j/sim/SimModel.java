package io.skillopt4j.sim;

import java.util.List;
import java.util.Objects;

/**
 * Immutable, thread-safe. The simulator's deterministic "model": it recognises which SkillOpt stage (or house-rules
 * task) a request is from and answers as that role would, depending only on the seed, behaviour and text.
 */
public final class SimModel {
    /** Stage headings of the trainer's user messages (upstream §5.2), most specific first. */
    private static final List<String[]> HEADINGS = List.of(
            new String[] {"## Previous Slow Update Guidance", "slow_update"},
            new String[] {"## Previous Meta Skill", "meta_skill"},
            new String[] {"## Current Execution Notes (", "appendix_consolidate"},
            new String[] {"## Two pre-merged patch groups to combine", "merge_final"},
            new String[] {"## Patches to merge (", "merge"},
            new String[] {"## Edits Pool (", "ranking"},
            new String[] {"## Suggestions Pool (", "ranking"},
            new String[] {"## Current Step Evidence", "lr_autonomous"},
            new String[] {"## Selected Revise Suggestions (", "rewrite"},
            new String[] {"## Failed Trajectories (", "analyst_error"},
            new String[] {"## Successful Trajectories (", "analyst_success"});

    private final long seed;
    private final TargetRole target;
    private final AnalystRole analyst;
    private final StageRoles stages;

    private SimModel(long seed, SimBehaviour behaviour, TargetNoise noise) {
        this.seed = seed;
        Objects.requireNonNull(behaviour, "behaviour");
        this.target = new TargetRole(seed, behaviour.slipRate(), Objects.requireNonNull(noise, "noise"));
        this.analyst = new AnalystRole(seed, behaviour);
        this.stages = new StageRoles(seed);
    }

    public static SimModel of(long seed) { return new SimModel(seed, SimBehaviour.defaults(), TargetNoise.none()); }

    public static SimModel of(long seed, SimBehaviour behaviour) { return new SimModel(seed, behaviour, TargetNoise.none()); }

    public static SimModel of(long seed, SimBehaviour behaviour, TargetNoise noise) { return new SimModel(seed, behaviour, noise); }

    public long seed() { return seed; }

    /** The optimizer stage a request is from, {@code target} for a house-rules task, else {@code chat}. */
    public String stage(String system, String user) {
        String u = user == null ? "" : user;
        for (String[] h : HEADINGS) if (SimText.hasHeading(u, h[0])) return h[1];
        return io.skillopt4j.env.houserules.HouseTasks.categoryOf(u).isPresent() ? "target" : "chat";
    }

    public String reply(String system, String user) {
        String s = system == null ? "" : system, u = user == null ? "" : user;
        return switch (stage(s, u)) {
            case "slow_update" -> stages.epochReflection(u, false);
            case "meta_skill" -> stages.epochReflection(u, true);
            case "appendix_consolidate" -> stages.consolidateAppendix(u);
            case "merge_final" -> stages.merge(u, "## Two pre-merged patch groups to combine", true);
            case "merge" -> stages.merge(u, "## Patches to merge (", false);
            case "ranking" -> stages.ranking(u);
            case "lr_autonomous" -> stages.learningRate(u);
            case "rewrite" -> stages.rewrite(u);
            case "analyst_error" -> analyst.errorAnalyst(s, u);
            case "analyst_success" -> analyst.successAnalyst(s, u);
            case "target" -> target.reply(s, u);
            default -> "Hello from the SkillOpt simulator, a deterministic stand-in for an LLM. It answers house-rules "
                    + "tasks and the SkillOpt optimizer stages; other requests get this note.";
        };
    }

    @Override public String toString() { return "SimModel seed " + seed; }
}
