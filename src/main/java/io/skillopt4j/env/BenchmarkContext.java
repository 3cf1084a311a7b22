package io.skillopt4j.env;

import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;

import java.nio.file.Path;
import java.util.Objects;

/** Immutable. What a factory needs to build a benchmark: the flat config, the models and the run folder. */
public record BenchmarkContext(FlatConfig config, ModelRoles roles, Path outRoot) {
    public BenchmarkContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(roles, "roles");
        Objects.requireNonNull(outRoot, "outRoot");
    }
}
