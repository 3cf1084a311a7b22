package io.skillopt4j.cli;

/**
 * Stateless. While a cold {@code train} reads its flags, config and data on the main thread, one daemon thread
 * initialises, on the otherwise idle second core, the costliest one-time things a run meets later: the default
 * time zone (run-folder names; tzdb is read once), Jackson's parser base class and tree nodes (a run reads
 * every reply into a tree; it never builds the {@code ObjectMapper}, see {@code Json}), whose {@code BigDecimal} constants cost a cold
 * JDK 25 25-40 ms ({@code BigDecimal}'s own static initialiser multiplies large numbers), OkHttp's {@code Platform}
 * (it asks {@code Security.getProviders()}, which instantiates every JCA provider) and the JDK's IDN tables (the
 * first URL parse loads ICU's StringPrep data). Each is a class initialisation, which the JVM runs exactly once:
 * a thread that needs one meanwhile waits for it instead of doing it again, so nothing changes but when it runs.
 */
final class Warmup {
    private Warmup() {}

    static void start() {
        Thread t = new Thread(Warmup::run, "skillopt-warmup");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        try {
            java.util.TimeZone.getDefault();
            io.skillopt4j.internal.Json.tree("0");
            okhttp3.internal.platform.Platform.Companion.get();
            okhttp3.HttpUrl.get("http://localhost/");
        } catch (Exception | LinkageError ignored) {
            // only an early start of what the run does anyway: the run meets any real failure itself
        }
    }
}
