package io.skillopt4j.backend;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. One task for an exec agent: the agent gets a fresh workspace under {@code workspace} holding
 * the skill as {@code .agents/skills/skillopt-target/SKILL.md}, the task as {@code task.md}, and any
 * {@code extraFiles} (relative path → content). {@code images} are copied in as {@code attachments/NN_<name>}
 * (listed in {@code ATTACHMENTS.md}) and handed to the CLI as it takes images; {@code dataDirs} are directories
 * the agent may read (Claude/Cursor/Copilot {@code --add-dir}). {@code traceDir} is where raw and summary traces go.
 */
public record ExecTask(String id, String prompt, String skill, Path workspace, Path traceDir,
                       Duration timeout, Map<String, String> extraFiles, List<Path> images, List<Path> dataDirs) {
    public ExecTask {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(prompt, "prompt");
        skill = skill == null ? "" : skill;
        Objects.requireNonNull(workspace, "workspace");
        extraFiles = extraFiles == null ? Map.of() : Map.copyOf(extraFiles);
        images = images == null ? List.of() : List.copyOf(images);
        dataDirs = dataDirs == null ? List.of() : List.copyOf(dataDirs);
    }

    /** A task without images or data directories. */
    public ExecTask(String id, String prompt, String skill, Path workspace, Path traceDir, Duration timeout, Map<String, String> extraFiles) {
        this(id, prompt, skill, workspace, traceDir, timeout, extraFiles, List.of(), List.of());
    }
}
