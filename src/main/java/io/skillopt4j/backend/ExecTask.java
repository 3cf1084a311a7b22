package io.skillopt4j.backend;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. One task for an exec agent: the agent gets a fresh workspace under {@code workspace} holding
 * the skill as {@code .agents/skills/skillopt-target/SKILL.md}, the task as {@code task.md}, and any
 * {@code extraFiles} (relative path → content). {@code traceDir} is where raw and summary traces go.
 */
public record ExecTask(String id, String prompt, String skill, Path workspace, Path traceDir,
                       Duration timeout, Map<String, String> extraFiles) {
    public ExecTask {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(prompt, "prompt");
        skill = skill == null ? "" : skill;
        Objects.requireNonNull(workspace, "workspace");
        extraFiles = extraFiles == null ? Map.of() : Map.copyOf(extraFiles);
    }
}
