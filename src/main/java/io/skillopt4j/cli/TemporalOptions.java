package io.skillopt4j.cli;

import io.skillopt4j.config.Checks;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * Not thread-safe (picocli fills it). How {@code skillopt worker} reaches the Temporal cluster of the runs it serves:
 * the CLI face of the {@code engine.*} connection keys a training uses (frontend, namespace, task-queue prefix, mTLS).
 * No signature here names a Temporal type: picocli reflects over mixins at start-up, which would load it.
 */
final class TemporalOptions {
    @Option(names = "--engine-address", defaultValue = "localhost:7233", description = "Temporal frontend HOST:PORT. Default ${DEFAULT-VALUE}.") String address;
    @Option(names = "--namespace", defaultValue = "default", description = "Temporal namespace. Default ${DEFAULT-VALUE}.") String namespace;
    @Option(names = "--task-queue", defaultValue = "skillopt", description = "Task-queue prefix (engine.task_queue of the runs). Default ${DEFAULT-VALUE}.") String queue;
    @Option(names = "--tls-cert", defaultValue = "", description = "Client certificate (PEM) for mTLS.") String tlsCert;
    @Option(names = "--tls-key", defaultValue = "", description = "Client key (PKCS#8 PEM) for mTLS.") String tlsKey;
    @Option(names = "--tls-ca", defaultValue = "", description = "CA bundle (PEM) of the server certificate.") String tlsCa;

    /** Adds what is wrong with these options (address shape, missing TLS files) to {@code checks}; returns it. */
    Checks check(Checks checks) {
        if (!address.matches("[^:\\s]+:[0-9]{1,5}")) checks.add("--engine-address must be HOST:PORT, got \"" + address + "\"");
        for (String[] f : new String[][] {{"--tls-cert", tlsCert}, {"--tls-key", tlsKey}, {"--tls-ca", tlsCa}})
            if (!f[1].isBlank()) checks.file(f[0], Path.of(f[1]));
        return checks;
    }
}
