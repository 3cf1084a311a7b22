package io.skillopt4j.sim;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.train.Trainer;
import io.skillopt4j.train.TrainingResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Test fixture: the demo config run by the real trainer through the openai_compatible backend against a SimServer. */
final class SimEndToEnd {
    private SimEndToEnd() {}

    static FlatConfig demoConfig(Path outRoot, String... overrides) {
        List<ConfigRequest.Override> os = new java.util.ArrayList<>(ConfigRequest.parseOverrides(List.of(overrides)));
        os.add(ConfigRequest.Override.typed("env.out_root", outRoot.toString()));
        return ConfigResolver.system().resolve(new ConfigRequest(Path.of("configs/demo/default.yaml"), Map.of(), os, Map.of(), false)).flat();
    }

    static TrainingResult train(SimServer sim, FlatConfig cfg, Path outRoot) {
        ModelRoles roles = Backends.roles(cfg, Map.of("OPENAI_COMPATIBLE_BASE_URL", sim.url(), "OPENAI_COMPATIBLE_API_KEY", "sk-sim"));
        Benchmark b = Benchmarks.create("house-rules", new BenchmarkContext(cfg, roles, outRoot));
        return Trainer.builder().config(cfg).roles(roles).benchmark(b).outRoot(outRoot).build().train();
    }
}
