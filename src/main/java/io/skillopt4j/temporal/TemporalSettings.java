package io.skillopt4j.temporal;

import io.skillopt4j.config.Setting;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.GrpcCompression;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;

import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;

/** Immutable. How to reach a Temporal cluster ({@code engine.*} keys), and the activities' heartbeat and attempts. */
public record TemporalSettings(String address, String namespace, String taskQueue, String tlsCert, String tlsKey, String tlsCa,
                               int heartbeatSeconds, int maxAttempts) {
    public TemporalSettings {
        if (address == null || !address.matches("[^:\\s]+:\\d{1,5}")) throw ConfigException.badValue("", "engine.address", address, "HOST:PORT");
        if (namespace == null || namespace.isBlank()) throw ConfigException.badValue("", "engine.namespace", namespace, "a namespace name");
        if (taskQueue == null || taskQueue.isBlank()) throw ConfigException.badValue("", "engine.task_queue", taskQueue, "a task-queue name");
        if (heartbeatSeconds < 1) throw ConfigException.badValue("", "engine.heartbeat_s", heartbeatSeconds, "an integer >= 1");
        if (maxAttempts < 1) throw ConfigException.badValue("", "engine.max_attempts", maxAttempts, "an integer >= 1");
        tlsCert = tlsCert == null ? "" : tlsCert;
        tlsKey = tlsKey == null ? "" : tlsKey;
        tlsCa = tlsCa == null ? "" : tlsCa;
        if (tlsCert.isBlank() != tlsKey.isBlank()) throw new ConfigException("engine.tls_cert and engine.tls_key must be set together");
        for (String[] f : new String[][] {{"engine.tls_cert", tlsCert}, {"engine.tls_key", tlsKey}, {"engine.tls_ca", tlsCa}}) {
            if (!f[1].isBlank() && !Files.isRegularFile(Path.of(f[1]))) throw ConfigException.badValue("", f[0], f[1], "a readable PEM file");
        }
    }

    /** Reads the {@code engine.*} keys of a flat config (defaults as in docs/config.md). */
    public static TemporalSettings from(FlatConfig c) {
        return new TemporalSettings(Setting.string("engine_address").of(c), Setting.string("engine_namespace").of(c),
                Setting.string("engine_task_queue").of(c), Setting.string("engine_tls_cert").of(c), Setting.string("engine_tls_key").of(c),
                Setting.string("engine_tls_ca").of(c), Setting.integer("engine_heartbeat_s").of(c), Setting.integer("engine_max_attempts").of(c));
    }

    /** Settings for a worker or test: {@code address} and {@code taskQueue}, everything else default. */
    public static TemporalSettings of(String address, String taskQueue) {
        return from(FlatConfig.of(java.util.Map.of("engine_address", address, "engine_task_queue", taskQueue)));
    }

    public String rolloutQueue() { return taskQueue + ".rollout"; }

    public String optimizerQueue() { return taskQueue + ".optimizer"; }

    /** Connects to the frontend (plaintext, or mTLS when the TLS files are set). */
    public WorkflowClient connect() {
        // no gzip (the SDK's default): payloads of a few hundred bytes gain nothing, and it costs CPU per request
        WorkflowServiceStubsOptions.Builder b = WorkflowServiceStubsOptions.newBuilder().setTarget(address)
                .setGrpcCompression(GrpcCompression.NONE);
        if (!tlsCert.isBlank() || !tlsCa.isBlank()) {
            try {
                SimpleSslContextBuilder ssl;
                if (!tlsCert.isBlank()) {
                    try (InputStream cert = Files.newInputStream(Path.of(tlsCert)); InputStream key = Files.newInputStream(Path.of(tlsKey))) {
                        ssl = SimpleSslContextBuilder.forPKCS8(cert, key);
                    }
                } else {
                    ssl = SimpleSslContextBuilder.noKeyOrCertChain();
                }
                if (!tlsCa.isBlank()) ssl.setTrustManager(trust(Path.of(tlsCa)).getTrustManagers()[0]);
                b.setSslContext(ssl.build());
            } catch (IOException | java.security.GeneralSecurityException e) {
                throw new ConfigException("engine TLS files cannot be used: " + e.getMessage(), e);
            }
        }
        WorkflowServiceStubs stubs;
        try {
            stubs = WorkflowServiceStubs.newConnectedServiceStubs(b.build(), java.time.Duration.ofSeconds(8));
        } catch (RuntimeException e) {
            throw new ConfigException("engine.address " + address + ": no Temporal frontend answers there (" + e.getMessage()
                    + "); start one, e.g. `skillopt engine dev-server --port " + address.substring(address.lastIndexOf(':') + 1) + "`", e);
        }
        return WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder().setNamespace(namespace).build());
    }

    private static TrustManagerFactory trust(Path ca) throws IOException, java.security.GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        try (InputStream in = Files.newInputStream(ca)) {
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) ks.setCertificateEntry("ca" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        return tmf;
    }
}
