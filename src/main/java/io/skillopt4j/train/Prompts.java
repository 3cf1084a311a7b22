package io.skillopt4j.train;

import io.skillopt4j.env.Benchmark;

/** Thread-safe. The optimizer's system prompts, overridden per benchmark where upstream allows (analysts, rewrite). */
public record Prompts(Benchmark benchmark) {

    /** Returns the benchmark's override of {@code name} if any, else the generic prompt. */
    public String withOverride(String name) {
        if (benchmark == null) return generic(name);
        return benchmark.prompt(name).filter(p -> !p.isBlank()).orElseGet(() -> generic(name));
    }

    /** {@code system} with the bundle section when {@code skill} is an Agent Skill; else unchanged. */
    public static String forSkill(String system, String skill, boolean rewrite) {
        if (!io.skillopt4j.env.SkillBundle.isAgentSkill(skill)) return system;
        return system + generic(rewrite ? "bundle_rewrite" : "bundle_edits");
    }

    /** The skill as the optimizer's prompts show it: a bundle's references in full up to the budget, else a preview. */
    public static String view(String skill) { return io.skillopt4j.env.SkillBundle.view(skill, io.skillopt4j.env.SkillBundle.DEFAULT_REFERENCE_BUDGET); }

    /** Returns the generic prompt {@code prompts/<name>.md}; a missing file is a packaging bug. */
    public static String generic(String name) {
        return io.skillopt4j.internal.Resources.text("/prompts/" + name + ".md");
    }
}
