package io.skillopt4j.run;

import io.skillopt4j.backend.TraceStep;

import java.nio.file.Path;
import java.util.List;

/** Immutable. The parsed trace of one exec-target rollout ({@code predictions/<id>/}) in {@code set}. */
public record TraceFile(RolloutSet set, String id, String backend, Path file, List<TraceStep> steps) {
    public TraceFile {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }
}
