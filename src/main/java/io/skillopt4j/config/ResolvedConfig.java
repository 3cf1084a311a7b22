package io.skillopt4j.config;

import io.skillopt4j.internal.Redactor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Immutable. The result of resolving a configuration once: the flat map upstream's trainer would receive
 * (roles, models and {@code out_root} already resolved), its validated typed view, the warnings raised on the
 * way and the YAML file it came from (null when built from a map).
 *
 * @param flat     final flat config
 * @param run      typed, validated view of {@code flat}
 * @param warnings warnings in the order they were raised
 * @param source   the YAML file, or null
 */
public record ResolvedConfig(FlatConfig flat, RunConfig run, List<ConfigWarning> warnings, Path source) {
    public ResolvedConfig {
        warnings = List.copyOf(warnings);
    }

    /**
     * Returns a warning when {@code env.skill_init} names a file that does not exist (upstream then trains from a blank
     * skill): checked when a training is assembled, not by {@code config show} (shipped configs name upstream's paths).
     */
    public java.util.Optional<ConfigWarning> missingSkillInit() {
        String s = run.env().skillInit();
        if (s.isBlank()) return java.util.Optional.empty();
        Path p = Path.of(s).toAbsolutePath().normalize();
        if (java.nio.file.Files.isRegularFile(p) || java.nio.file.Files.isDirectory(p)) return java.util.Optional.empty(); // a folder: an Agent Skill
        return java.util.Optional.of(new ConfigWarning(ConfigWarning.USER, "env.skill_init (skill_init): file not found: " + p
                + " (training would start from a blank skill)"));
    }

    /** Returns the flat config sorted by key with secret values masked (what {@code config show} prints). */
    public Map<String, Object> redactedSorted() {
        return new TreeMap<>(Redactor.redact(flat.asMap()));
    }
}
