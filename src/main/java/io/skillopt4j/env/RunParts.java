package io.skillopt4j.env;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/** Immutable. A run's models and benchmark, built only here (ArchitectureTest checks that nothing else does). */
public record RunParts(ModelRoles roles, Benchmark benchmark) {
    /** Builds the models from {@code cfg} and {@code env}, then {@code custom}'s benchmark, else {@code env.name}'s. */
    public static RunParts assemble(FlatConfig cfg, Map<String, String> env, Path workDir, Function<BenchmarkContext, Benchmark> custom) {
        ModelRoles roles = Backends.roles(cfg, env);
        BenchmarkContext ctx = new BenchmarkContext(cfg, roles, workDir);
        return new RunParts(roles, custom != null ? custom.apply(ctx) : Benchmarks.create(Setting.string("env").of(cfg), ctx));
    }
}
