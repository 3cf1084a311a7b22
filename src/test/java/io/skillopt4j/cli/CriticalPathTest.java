package io.skillopt4j.cli;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.Trainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The bench's phase model must account for every call the simulator saw, in upstream's order. */
class CriticalPathTest {
    @TempDir Path tmp;

    @Test void phasesCountEveryCallOfADemoRunIncludingSkippedStepsAndBackgroundRollouts() {
        Path cfgFile = DemoCommand.locate(DemoCommand.DEMO_CONFIG);
        Path root = tmp.resolve("run");
        List<ConfigRequest.Override> os = new ArrayList<>();
        os.add(ConfigRequest.Override.typed("env.out_root", root.toString()));
        os.add(ConfigRequest.Override.typed("env.skill_init", cfgFile.getParent().resolve("initial_skill.md").toString()));
        os.add(ConfigRequest.Override.typed("train.num_epochs", 2));
        os.add(ConfigRequest.Override.typed("env.workers", 4));
        FlatConfig cfg = ConfigResolver.system().resolve(new ConfigRequest(cfgFile, Map.of(), os, Map.of(), false)).flat();
        long requests;
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            ModelRoles roles = Backends.roles(cfg, Map.of("OPENAI_COMPATIBLE_BASE_URL", sim.url(), "OPENAI_COMPATIBLE_API_KEY", "sk-test"));
            Benchmark b = Benchmarks.create("house-rules", new BenchmarkContext(cfg, roles, root));
            Trainer.builder().config(cfg).roles(roles).benchmark(b).outRoot(root).build().train();
            requests = sim.requests();
        }
        List<CriticalPath.Phase> phases = CriticalPath.phases(root, 4, 4);
        assertEquals(requests, phases.stream().mapToLong(CriticalPath.Phase::calls).sum(), phases.toString());
        assertEquals("baseline selection", phases.get(0).name());
        assertEquals(40, phases.get(0).calls());
        assertEquals(10, phases.get(0).waves(), "40 calls on 4 workers");
        assertTrue(phases.stream().anyMatch(p -> p.name().equals("test_eval_baseline") && p.calls() == 120),
                "the background test evaluation is a phase of the sequential model");
        assertTrue(phases.stream().anyMatch(p -> p.name().equals("slow epoch_02 prev") && p.calls() > 0));
        assertTrue(phases.stream().anyMatch(p -> p.name().endsWith(" reflect") && p.calls() > 0));
    }
}
