package io.skillopt4j.temporal;

import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.EngineRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Separate JVMs on loopback: {@code skillopt engine dev-server}, two {@code skillopt worker}s and this JVM as the
 * coordinator, against a simulator with latency. One worker is SIGKILLed mid-run; its activities time out on their
 * heartbeat and run again on the other worker; the run folder still equals the local engine's.
 */
class TemporalClusterTest {
    @TempDir Path tmp;
    private final List<Process> processes = new ArrayList<>();

    private Process java(Map<String, String> env, Path log, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "io.skillopt4j.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.contains("OPENAI") || k.contains("ANTHROPIC"));
        pb.environment().putAll(env);
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    private static void awaitLine(Path log, String text, Process p) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < until) {
            if (Files.exists(log) && Files.readString(log).contains(text)) return;
            if (!p.isAlive()) fail("process exited early:\n" + Files.readString(log));
            Thread.sleep(100);
        }
        fail("no '" + text + "' in " + log + ":\n" + Files.readString(log));
    }

    private static void awaitPort(int port, Process p) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < until) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                if (!p.isAlive()) fail("dev server exited early");
                Thread.sleep(100);
            }
        }
        fail("dev server never listened on " + port);
    }

    @Test
    void twoWorkerJvmsOneKilledMidRunWriteTheLocalEnginesRun() throws Exception {
        Path local = tmp.resolve("local"), remote = tmp.resolve("temporal");
        long total;
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            EngineRuns.train(EngineRuns.config(local), local, sim.url(), null);
            total = sim.requests();
        }
        try (SimServer sim = SimServer.builder().seed(7).latency(Duration.ofMillis(100)).start()) {
            int port = DevServer.freePort();
            String address = "127.0.0.1:" + port;
            Process server = java(Map.of(), tmp.resolve("server.log"), "engine", "dev-server", "--port", String.valueOf(port));
            awaitPort(port, server);
            Map<String, String> env = EngineRuns.simEnv(sim.url());
            Process a = java(env, tmp.resolve("a.log"), "worker", "--engine-address", address, "--slots", "4", "--name", "worker-a",
                    "--work-dir", tmp.resolve("wa").toString());
            Process b = java(env, tmp.resolve("b.log"), "worker", "--engine-address", address, "--slots", "4", "--name", "worker-b",
                    "--work-dir", tmp.resolve("wb").toString());
            awaitLine(tmp.resolve("a.log"), "polling", a);
            awaitLine(tmp.resolve("b.log"), "polling", b);

            long killAt = sim.requests() + total / 3;
            Thread killer = new Thread(() -> {
                try {
                    while (sim.requests() < killAt) Thread.sleep(20);
                    a.destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye to the server
                } catch (InterruptedException ignored) { /* test over */ }
            });
            killer.setDaemon(true);
            killer.start();
            EngineRuns.train(EngineRuns.config(remote, "engine.name=temporal", "engine.address=" + address, "engine.heartbeat_s=2"),
                    remote, sim.url(), null);
            killer.join(5000);
            assertFalse(a.isAlive(), "worker-a was killed mid-run");

            assertEquals(List.of(), EngineRuns.diff(local, remote), "identical decisions, skills, scores, tokens");
            List<Object> history = (List<Object>) Json.read(remote.resolve("history.json"));
            List<Object> steps = new ArrayList<>();
            for (Object h : history) steps.add(((Map<?, ?>) h).get("step"));
            assertEquals(new ArrayList<>(new java.util.TreeSet<>(steps)), steps, "no step lost or duplicated");
            Set<String> workers = new HashSet<>();
            int retried = 0;
            for (String line : Files.readAllLines(remote.resolve("engine/activities.jsonl"))) {
                Map<String, Object> row = Json.parseObject(line);
                workers.add(String.valueOf(row.get("worker")));
                if (((Number) row.get("attempt")).intValue() > 1) retried++;
            }
            assertEquals(Set.of("worker-a", "worker-b"), workers);
            assertTrue(retried > 0, "an activity of the killed worker ran again on the other one");
        } finally {
            for (Process p : processes) p.destroyForcibly();
        }
    }
}
