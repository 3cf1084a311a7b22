package io.skillopt4j.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Not thread-safe (picocli command object). {@code skillopt worker}: a Temporal worker that runs rollout items and
 * optimizer calls of {@code --engine temporal} runs; models use this process's environment (keys, base URLs).
 */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Run rollout items and optimizer calls of `train --engine temporal` runs on this machine (see docs/scale-out.md).")
final class WorkerCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Option(names = "--engine-address", defaultValue = "localhost:7233", description = "Temporal frontend HOST:PORT. Default ${DEFAULT-VALUE}.") String address;
    @Option(names = "--namespace", defaultValue = "default", description = "Temporal namespace. Default ${DEFAULT-VALUE}.") String namespace;
    @Option(names = "--task-queue", defaultValue = "skillopt", description = "Task-queue prefix (engine.task_queue of the runs). Default ${DEFAULT-VALUE}.") String queue;
    @Option(names = "--slots", defaultValue = "8", description = "Concurrent rollout items, and concurrent optimizer calls. Default ${DEFAULT-VALUE}.") int slots;
    @Option(names = "--rollout-rps", defaultValue = "0", description = "Task-queue cap on rollout items started per second, across all workers (the target provider's rate limit; 0 = none).") double rolloutRps;
    @Option(names = "--optimizer-rps", defaultValue = "0", description = "Task-queue cap on optimizer calls started per second, across all workers (0 = none).") double optimizerRps;
    @Option(names = "--name", defaultValue = "", description = "Worker name in the run's activity table (default host-pid).") String name;
    @Option(names = "--work-dir", description = "Scratch folder for items and exec-agent workspaces (default: a temp folder).") Path workDir;
    @Option(names = "--tls-cert", defaultValue = "", description = "Client certificate (PEM) for mTLS.") String tlsCert;
    @Option(names = "--tls-key", defaultValue = "", description = "Client key (PKCS#8 PEM) for mTLS.") String tlsKey;
    @Option(names = "--tls-ca", defaultValue = "", description = "CA bundle (PEM) of the server certificate.") String tlsCa;
    @Option(names = "--serve-ms", hidden = true, defaultValue = "0", description = "Stop after this many ms (tests).") long serveMs;

    @Override public Integer call() throws Exception {
        io.skillopt4j.config.Checks checks = new io.skillopt4j.config.Checks().atLeast("--slots", slots, 1).atLeast("--rollout-rps", rolloutRps, 0)
                .atLeast("--optimizer-rps", optimizerRps, 0).outputDir("--work-dir", workDir);
        if (!address.matches("[^:\\s]+:[0-9]{1,5}")) checks.add("--engine-address must be HOST:PORT, got \"" + address + "\"");
        for (String[] f : new String[][] {{"--tls-cert", tlsCert}, {"--tls-key", tlsKey}, {"--tls-ca", tlsCa}})
            if (!f[1].isBlank()) checks.file(f[0], Path.of(f[1]));
        checks.throwIfAny();
        Path dir = workDir != null ? workDir : java.nio.file.Files.createTempDirectory("skillopt-worker-");
        return io.skillopt4j.temporal.Processes.worker(
                new io.skillopt4j.temporal.TemporalSettings(address, namespace, queue, tlsCert, tlsKey, tlsCa, 20, 10),
                new io.skillopt4j.temporal.EngineWorker.Capacity(slots, rolloutRps, optimizerRps), name, dir, serveMs, spec.commandLine().getOut());
    }
}
