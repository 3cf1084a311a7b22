package io.skillopt4j.temporal;

import io.temporal.client.WorkflowClient;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;

/**
 * Stateless. {@code skillopt worker} and {@code skillopt engine dev-server}; called with plain values so the CLI's
 * start-up never loads a Temporal class.
 */
public final class Processes {
    private Processes() {}

    /** Runs a worker until the JVM stops (or {@code serveMs} passed); scratch folders under {@code workDir}. */
    public static int worker(TemporalSettings settings, EngineWorker.Capacity capacity, String name, Path workDir, long serveMs,
                             PrintWriter out) throws InterruptedException {
        String id = name == null || name.isBlank() ? defaultName() : name;
        WorkflowClient client = settings.connect();
        WorkerActivities activities = new WorkerActivities(id, workDir, WorkerActivities.fromEnvironment(System.getenv()));
        EngineWorker w = EngineWorker.start(client, settings, capacity, id, activities);
        out.println("skillopt worker " + id + ": polling " + settings.rolloutQueue() + " and " + settings.optimizerQueue() + " at "
                + settings.address() + " with " + capacity.slots() + " slot(s) each; scratch " + workDir.toAbsolutePath());
        out.flush();
        io.skillopt4j.internal.StopSignal.await(serveMs);
        w.close();
        return 0;
    }

    /** Serves the Temporal test server on {@code port} until the JVM stops (or {@code serveMs} passed). */
    public static int devServer(int port, long serveMs, PrintWriter out) throws InterruptedException {
        try (DevServer s = DevServer.start(port)) {
            out.println("skillopt engine: Temporal dev server (in-memory test server) at " + s.address());
            out.println("  train with --engine temporal --engine_address " + s.address() + "; workers: skillopt worker --engine-address "
                    + s.address());
            out.flush();
            io.skillopt4j.internal.StopSignal.await(serveMs);
        }
        return 0;
    }

    /** host-pid, as the activity frame shows workers. */
    static String defaultName() {
        String host;
        try { host = InetAddress.getLocalHost().getHostName(); } catch (java.io.IOException e) { host = "worker"; }
        return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
    }
}
