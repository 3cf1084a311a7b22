package io.skillopt4j.train;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.run.RunDiff;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Test fixture for the engine tests: a small house-rules training (every stage: rollout, analysts, merge, rank,
 * update, gate, slow update, meta skill, test evaluation) through the openai_compatible backend against a
 * simulator URL, and the run-folder comparison ({@link RunDiff}).
 */
public final class EngineRuns {
    private EngineRuns() {}

    /** The demo config shrunk to a few steps; {@code overrides} are {@code key=value} items. */
    public static FlatConfig config(Path outRoot, String... overrides) {
        List<String> all = new ArrayList<>(List.of("env.house_rules_per_category=4", "train.batch_size=8", "train.num_epochs=2",
                "optimizer.slow_update_samples=6", "gradient.minibatch_size=4", "env.workers=4", "evaluation.test_env_num=12"));
        all.addAll(List.of(overrides));
        List<ConfigRequest.Override> os = new ArrayList<>(ConfigRequest.parseOverrides(all));
        os.add(ConfigRequest.Override.typed("env.out_root", outRoot.toString()));
        return ConfigResolver.system().resolve(new ConfigRequest(Path.of("configs/demo/default.yaml"), Map.of(), os, Map.of(), false)).flat();
    }

    /** The environment a run's backends see: the simulator's address only. */
    public static Map<String, String> simEnv(String simUrl) {
        return Map.of("OPENAI_COMPATIBLE_BASE_URL", simUrl, "OPENAI_COMPATIBLE_API_KEY", "sk-sim");
    }

    /** Trains {@code cfg} into {@code out} on {@code engine} (null = engine.name of the config). */
    public static TrainingResult train(FlatConfig cfg, Path out, String simUrl, ExecutionEngine.Factory engine) {
        return train(cfg, out, simUrl, engine, null);
    }

    /** As {@link #train(FlatConfig, Path, String, ExecutionEngine.Factory)}, with a listener (null = none). */
    public static TrainingResult train(FlatConfig cfg, Path out, String simUrl, ExecutionEngine.Factory engine,
                                       io.skillopt4j.run.TrainingListener listener) {
        ModelRoles roles = Backends.roles(cfg, simEnv(simUrl));
        Benchmark b = Benchmarks.create(cfg.string("env", ""), new BenchmarkContext(cfg, roles, out));
        return Trainer.builder().config(io.skillopt4j.config.RunConfig.from(cfg, "")).roles(roles).benchmark(b).outRoot(out).engine(engine).listener(listener).build().train();
    }

    /** Differences between two run folders ({@link RunDiff}): empty when the runs agree. */
    public static List<String> diff(Path a, Path b) { return RunDiff.of(a, b); }
}
