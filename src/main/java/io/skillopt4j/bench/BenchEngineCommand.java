package io.skillopt4j.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.concurrent.Callable;

/**
 * {@code skillopt bench engine}: the Temporal engine against the local one on loopback — overhead per activity at
 * zero latency, and the wall time of a training at a fixed latency with 2 workers × 8 slots vs 16 local workers.
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "Measure the Temporal engine: overhead per activity vs a local call, and training wall time vs the local engine.")
final class BenchEngineCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Option(names = "--calls", defaultValue = "200", description = "Sequential optimizer calls per engine at 0 ms (default: ${DEFAULT-VALUE}).") int calls;
    @Option(names = "--warmup", defaultValue = "2000", description = "Optimizer calls per engine before the sequential figures are timed: the JIT "
            + "needs about this many before the gRPC, protobuf and SDK paths stop getting faster (default: ${DEFAULT-VALUE}).") int warmup;
    @Option(names = "--items", defaultValue = "128", description = "Rollout items per batch at 0 ms (default: ${DEFAULT-VALUE}).") int items;
    @Option(names = "--latency-ms", defaultValue = "200", description = "Simulated latency of the training comparison (default: ${DEFAULT-VALUE}).") long latencyMs;
    @Option(names = "--epochs", defaultValue = "1", description = "Epochs of the training comparison (default: ${DEFAULT-VALUE}).") int epochs;
    @Option(names = "--workers", defaultValue = "2", description = "Temporal workers (default: ${DEFAULT-VALUE}).") int workers;
    @Option(names = "--slots", defaultValue = "8", description = "Slots per Temporal worker (default: ${DEFAULT-VALUE}); the local engine gets workers × slots.") int slots;
    @Mixin RunsDirOptions runs;

    @Override public Integer call() throws Exception {
        runs.check(new io.skillopt4j.config.Checks().atLeast("--calls", calls, 1).atLeast("--warmup", warmup, 0).atLeast("--items", items, 1)
                .atLeast("--latency-ms", latencyMs, 0).atLeast("--epochs", epochs, 1).atLeast("--workers", workers, 1).atLeast("--slots", slots, 1)).throwIfAny();
        return EngineBench.run(runs.base("skillopt-bench-engine"), calls, warmup, items, latencyMs, epochs, workers, slots, spec.commandLine().getOut());
    }
}
