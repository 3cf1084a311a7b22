package io.skillopt4j.cli;

import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class EngineCommandTest {
    @TempDir Path tmp;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) { return s.getLocalPort(); }
    }

    @Test
    void devServerServesOnTheGivenPortAndSaysHowToUseIt() throws Exception {
        int port = freePort();
        CliRun r = CliRun.run("engine", "dev-server", "--port", String.valueOf(port), "--serve-ms", "300");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("127.0.0.1:" + port), r.out());
        assertTrue(r.out().contains("--engine temporal --engine_address 127.0.0.1:" + port), r.out());
    }

    @Test
    void aWorkerOrATrainingWithoutAFrontendFailsInOneLineBeforeAnyModelCall() throws Exception {
        String address = "127.0.0.1:" + freePort();
        CliRun w = CliRun.run("worker", "--engine-address", address);
        assertEquals(2, w.code(), w.out() + w.err());
        assertTrue(w.err().startsWith("error: engine.address " + address + ": no Temporal frontend answers there"), w.err());
        assertEquals(1, w.err().strip().lines().count(), w.err());

        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path out = tmp.resolve("run");
            CliRun t = CliRun.run("train", "--config", "configs/demo/default.yaml", "--out_root", out.toString(), "--engine", "temporal",
                    "--engine_address", address, "--cfg-options", "env.house_rules_per_category=3", "model.openai_compatible_base_url=" + sim.url());
            assertEquals(2, t.code(), t.out() + t.err());
            assertTrue(t.err().contains("no Temporal frontend answers there"), t.err());
            assertEquals(0, sim.requests());
            assertFalse(Files.exists(out.resolve("history.json")));
        }
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path out = tmp.resolve("capped");
            CliRun c = CliRun.run("train", "--config", "configs/demo/default.yaml", "--out_root", out.toString(), "--engine", "temporal",
                    "--engine_address", address, "--budget_usd", "1", "--cfg-options", "env.house_rules_per_category=3",
                    "model.openai_compatible_base_url=" + sim.url());
            // a dollar cap holds across workers (DistributedLedgerTest): only the missing cluster stops this one
            assertEquals(2, c.code(), c.out() + c.err());
            assertTrue(c.err().contains("no Temporal frontend answers there"), c.err());
            assertEquals(0, sim.requests());
        }
        CliRun bad = CliRun.run("train", "--config", "configs/demo/default.yaml", "--out_root", tmp.resolve("x").toString(), "--engine", "ray");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--engine: invalid choice: 'ray' (choose from 'local', 'temporal')"), bad.err());
    }

    @Test
    void theLocalEngineLoadsNoTemporalClass() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = tmp.resolve("classes.log");
        Process p = new ProcessBuilder(java, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-verbose:class", "-cp", System.getProperty("java.class.path"),
                LocalPathMain.class.getName(), tmp.resolve("run").toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertEquals(0, p.waitFor(), Files.readString(log).lines().filter(l -> !l.contains("[class,load]")).toList().toString());
        List<String> lines = Files.readAllLines(log);
        assertTrue(lines.contains("local run done"));
        assertTrue(lines.stream().anyMatch(l -> l.contains("io.skillopt4j.train.LocalEngine")), "the seam was used");
        List<String> temporal = lines.stream().filter(l -> l.contains(" io.temporal.") || l.contains(" io.skillopt4j.temporal.")).toList();
        assertEquals(List.of(), temporal);
    }
}
