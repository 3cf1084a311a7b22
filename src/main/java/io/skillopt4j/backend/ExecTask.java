package io.skillopt4j.backend;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. One task for an exec agent, run in a fresh {@code workspace} holding the skill, {@code task.md}, the
 * {@code extraFiles} (relative path → content) and the {@code images}; {@code dataDirs} are directories the agent may
 * read; {@code traceDir} is where raw and summary traces go.
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
