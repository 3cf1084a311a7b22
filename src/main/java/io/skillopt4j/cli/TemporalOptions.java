package io.skillopt4j.cli;

import io.skillopt4j.config.Checks;
import io.skillopt4j.config.Setting;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * Not thread-safe (picocli fills it). How {@code skillopt worker} reaches the runs' Temporal cluster. No signature
 * here names a Temporal type: picocli reflects over mixins at start-up, which would load it.
 */
final class TemporalOptions {
    // defaults are the flag table's (engine.*): a worker and the runs it serves agree without a second copy
    @Option(names = "--engine-address", description = "Temporal frontend HOST:PORT. Default ${DEFAULT-VALUE}.")
    String address = Setting.string("engine_address").defaultValue();
    @Option(names = "--namespace", description = "Temporal namespace. Default ${DEFAULT-VALUE}.")
    String namespace = Setting.string("engine_namespace").defaultValue();
    @Option(names = "--task-queue", description = "Task-queue prefix (engine.task_queue of the runs). Default ${DEFAULT-VALUE}.")
    String queue = Setting.string("engine_task_queue").defaultValue();
    @Option(names = "--tls-cert", description = "Client certificate (PEM) for mTLS.") String tlsCert = Setting.string("engine_tls_cert").defaultValue();
    @Option(names = "--tls-key", description = "Client key (PKCS#8 PEM) for mTLS.") String tlsKey = Setting.string("engine_tls_key").defaultValue();
    @Option(names = "--tls-ca", description = "CA bundle (PEM) of the server certificate.") String tlsCa = Setting.string("engine_tls_ca").defaultValue();

    Checks check(Checks checks) {
        if (!address.matches("[^:\\s]+:[0-9]{1,5}")) checks.add("--engine-address must be HOST:PORT, got \"" + address + "\"");
        for (String[] f : new String[][] {{"--tls-cert", tlsCert}, {"--tls-key", tlsKey}, {"--tls-ca", tlsCa}})
            if (!f[1].isBlank()) checks.file(f[0], Path.of(f[1]));
        return checks;
    }
}
