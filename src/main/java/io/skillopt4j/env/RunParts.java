package io.skillopt4j.env;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * Immutable. A run's models and benchmark, and the one place that builds them from a resolved config: roles →
 * backends ({@link Backends#roles}) → benchmark (the one {@code env.name} registers, or the caller's factory). The
 * fluent builder ({@code notebook.SkillOpt}) assembles every training through it; a Temporal worker
 * ({@code temporal.WorkerActivities}) and {@code skillopt bench engine} build their models and benchmark through it
 * too, so there is no second spelling of the chain (ArchitectureTest checks that nothing else calls
 * {@code Backends.roles} or {@code Benchmarks.create}).
 *
 * @param roles     the optimizer and target models, their usage meter and cost ledger
 * @param benchmark the run's benchmark
 */
public record RunParts(ModelRoles roles, Benchmark benchmark) {
    /**
     * Builds the models from {@code cfg} and {@code env} (the process environment, or a test's), then the benchmark
     * with {@code workDir} as its folder: {@code custom}'s when given, else the one {@code env.name} names.
     */
    public static RunParts assemble(FlatConfig cfg, Map<String, String> env, Path workDir, Function<BenchmarkContext, Benchmark> custom) {
        ModelRoles roles = Backends.roles(cfg, env);
        BenchmarkContext ctx = new BenchmarkContext(cfg, roles, workDir);
        return new RunParts(roles, custom != null ? custom.apply(ctx) : Benchmarks.create(Setting.string("env").of(cfg), ctx));
    }
}
