package io.skillopt4j.run;

import io.skillopt4j.internal.Decimals;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable. Upstream's run-folder names under one {@code out_root}: {@code steps/step_NNNN},
 * {@code skills/skill_vNNNN.md}, {@code slow_update/epoch_EE}, {@code patches/minibatch_fail_XXX.json}, ...
 */
public record RunPaths(Path root) {
    public static final String CONFIG = "config.json";
    public static final String RUNTIME_STATE = "runtime_state.json";
    public static final String HISTORY = "history.json";
    public static final String SUMMARY = "summary.json";
    public static final String BEST_SKILL = "best_skill.md";
    public static final String LR_HISTORY = "lr_history.jsonl";
    /** SkillOpt4J's additions: one line per priced model call; fault counts of sessions that saw faults. */
    public static final String COST_LEDGER = "cost_ledger.jsonl";
    public static final String FAULTS = "faults.jsonl";

    public RunPaths {
        Objects.requireNonNull(root, "root");
        root = root.toAbsolutePath().normalize();
    }

    public Path config() { return root.resolve(CONFIG); }
    public Path runtimeState() { return root.resolve(RUNTIME_STATE); }
    public Path history() { return root.resolve(HISTORY); }
    public Path summary() { return root.resolve(SUMMARY); }
    public Path bestSkill() { return root.resolve(BEST_SKILL); }
    public Path lrHistory() { return root.resolve(LR_HISTORY); }

    public Path skill(int step) { return root.resolve("skills").resolve(skillFileName(step)); }

    /**
     * Returns the folder that holds a multi-file bundle next to its packed text: {@code skills/skill_vNNNN/} for
     * {@code skills/skill_vNNNN.md}, {@code best_skill/} for {@code best_skill.md}; empty for any other file.
     */
    public static java.util.Optional<Path> bundleFolder(Path skillFile) {
        String n = skillFile.getFileName() == null ? "" : skillFile.getFileName().toString();
        boolean skill = n.matches("skill_v\\d{4,}\\.md") && skillFile.getParent() != null
                && "skills".equals(String.valueOf(skillFile.getParent().getFileName()));
        if (!skill && !n.equals(BEST_SKILL)) return java.util.Optional.empty();
        return java.util.Optional.of(skillFile.resolveSibling(n.substring(0, n.length() - 3)));
    }

    public Path step(int step) { return root.resolve("steps").resolve(stepName(step)); }

    public Path slowUpdate(int epoch) { return root.resolve("slow_update").resolve(epochName(epoch)); }

    /** The slow update's completion marker. */
    public Path slowResult(int epoch) { return slowUpdate(epoch).resolve("slow_result.json"); }

    public Path metaSkill(int epoch) { return root.resolve("meta_skill").resolve(epochName(epoch)); }

    /** The meta skill's completion marker. */
    public Path metaSkillResult(int epoch) { return metaSkill(epoch).resolve("meta_skill_result.json"); }

    public static String stepName(int step) { return "step_" + Decimals.padded(step, 4); }

    public static String skillFileName(int step) { return "skill_v" + Decimals.padded(step, 4) + ".md"; }

    public static String epochName(int epoch) { return "epoch_" + Decimals.padded(epoch, 2); }

    public static String minibatchTag(boolean failure, int index) {
        return "minibatch_" + (failure ? "fail" : "succ") + "_" + Decimals.padded(index, 3);
    }

    /** Returns upstream's filesystem-safe id: at most 80 of {@code [A-Za-z0-9_.-]}, "_" for others, "item" if none. */
    public static String safeId(String id) {
        String s = (id == null ? "" : id).replaceAll("[^A-Za-z0-9_.-]+", "_").replaceAll("^_+|_+$", "");
        if (s.length() > 80) s = s.substring(0, 80);
        return s.isEmpty() ? "item" : s;
    }
}
