package io.skillopt4j.cli;

import io.skillopt4j.config.Checks;
import io.skillopt4j.config.Setting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Not thread-safe (picocli command object). {@code skillopt worker}: models use this process's environment. */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Run rollout items and optimizer calls of `train --engine temporal` runs on this machine (see docs/scale-out.md).")
final class WorkerCommand extends CliCommand {
    @Mixin TemporalOptions temporal;
    @Mixin CapacityOptions capacity;
    @Option(names = "--name", defaultValue = "", description = "Worker name in the run's activity table (default host-pid).") String name;
    @Option(names = "--work-dir", description = "Scratch folder for items and exec-agent workspaces (default: a temp folder).") Path workDir;
    @Mixin ServeOptions serve;

    /** Not thread-safe (picocli fills it). Slots and task-queue rate caps. */
    static final class CapacityOptions {
        @Option(names = "--slots", defaultValue = "8", description = "Concurrent rollout items, and concurrent optimizer calls. Default ${DEFAULT-VALUE}.") int slots;
        @Option(names = "--rollout-rps", defaultValue = "0", description = "Task-queue cap on rollout items started per second, across all workers (the target provider's rate limit; 0 = none).") double rolloutRps;
        @Option(names = "--optimizer-rps", defaultValue = "0", description = "Task-queue cap on optimizer calls started per second, across all workers (0 = none).") double optimizerRps;

        Checks check(Checks checks) {
            return checks.atLeast("--slots", slots, 1).atLeast("--rollout-rps", rolloutRps, 0).atLeast("--optimizer-rps", optimizerRps, 0);
        }
    }

    @Override public Integer call() throws Exception {
        temporal.check(capacity.check(new Checks()).outputDir("--work-dir", workDir)).throwIfAny();
        Path dir = workDir != null ? workDir : java.nio.file.Files.createTempDirectory("skillopt-worker-");
        // built here, not in the mixins: a method of theirs naming a Temporal type would load it at picocli's start-up
        return io.skillopt4j.temporal.Processes.worker(new io.skillopt4j.temporal.TemporalSettings(temporal.address, temporal.namespace,
                        temporal.queue, temporal.tlsCert, temporal.tlsKey, temporal.tlsCa,
                        Setting.integer("engine_heartbeat_s").defaultValue(), Setting.integer("engine_max_attempts").defaultValue()),
                new io.skillopt4j.temporal.EngineWorker.Capacity(capacity.slots, capacity.rolloutRps, capacity.optimizerRps),
                name, dir, serve.serveMs, spec.commandLine().getOut());
    }
}
