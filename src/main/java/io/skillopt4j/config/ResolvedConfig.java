package io.skillopt4j.config;

import io.skillopt4j.internal.Redactor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Immutable. A configuration resolved once: the flat map upstream's trainer would receive (roles, models and
 * {@code out_root} resolved), its typed view, the warnings in the order raised and the YAML file (null: a map).
 */
public record ResolvedConfig(FlatConfig flat, RunConfig run, List<ConfigWarning> warnings, Path source) {
    public ResolvedConfig {
        warnings = List.copyOf(warnings);
    }

    /**
     * A warning when {@code env.skill_init} names no file or folder (upstream then trains from a blank skill): checked
     * when a training is assembled, not by {@code config show} (shipped configs name upstream's paths).
     */
    public Optional<ConfigWarning> missingSkillInit() {
        String s = run.env().skillInit();
        if (s.isBlank()) return Optional.empty();
        Path p = Path.of(s).toAbsolutePath().normalize();
        if (Files.isRegularFile(p) || Files.isDirectory(p)) return Optional.empty(); // a folder: an Agent Skill
        return Optional.of(new ConfigWarning(ConfigWarning.USER, "env.skill_init (skill_init): file not found: " + p
                + " (training would start from a blank skill)"));
    }

    /** Sorted by key, secrets masked: what {@code config show} prints. */
    public Map<String, Object> redactedSorted() {
        return new TreeMap<>(Redactor.redact(flat.asMap()));
    }
}
