package io.skillopt4j.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchWorkloadCommandTest {
    private static WorkloadStats.Call c(String label, double start, double end) { return new WorkloadStats.Call(label, start, end); }

    @Test void statsCountOnlyTimeWithNothingInFlightAndNameTheTransition() {
        // launch at 10.0; two overlapping rollouts, a 50 ms gap, an analyst, a 20 ms gap, a rollout
        List<WorkloadStats.Call> log = List.of(c("rollout", 10.5, 10.6), c("rollout", 10.55, 10.62),
                c("analyst", 10.67, 10.7), c("rollout", 10.72, 10.8));
        WorkloadStats s = WorkloadStats.of(log, 10.0, 1.0);
        assertEquals(4, s.calls());
        assertEquals(0.5, s.startupS(), 1e-9);
        assertEquals(0.3, s.spanS(), 1e-9);
        assertEquals(0.07, s.idleS(), 1e-9);
        assertEquals(2, s.gaps());
        assertEquals(50, s.largestGapMs(), 1e-6);
        assertEquals(75, s.perCallMs(), 1e-6);
        assertEquals(List.of("rollout -> analyst", "analyst -> rollout"), List.copyOf(s.idleByTransition().keySet()));
        assertEquals(50, s.idleByTransition().get("rollout -> analyst")[1], 1e-6);
    }

    @TempDir Path tmp;

    @Test void aColdRunAgainstTheSimulatorPrintsTheTable() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String launch = java + " -cp " + System.getProperty("java.class.path") + " io.skillopt4j.cli.Main";
        CliRun r = CliRun.run("bench", "workload", "--repeat", "1", "--warmup", "0", "--launch", launch, "--workers", "2", "--analyst-workers", "2",
                "--dir", tmp.toString(), "--cfg-options", "train.num_epochs=1", "train.background_eval=false");
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("| launch → first model call (s) |"), r.out());
        assertTrue(r.out().contains("| in-loop cost per call, first → last call / calls (ms) |"), r.out());
        int calls = Integer.parseInt(r.out().replaceAll("(?s).*\\| model calls \\| (\\d+) \\|.*", "$1"));
        assertTrue(calls > 50, r.out());
        double disk = Double.parseDouble(r.out().replaceAll("(?s).*\\| creating a 1 KB file in the runs' folder, before each run \\(µs\\) \\| ([0-9.]+) \\|.*", "$1"));
        assertTrue(disk > 0, r.out());
        double floor = Double.parseDouble(r.out().replaceAll("(?s).*\\| for scale: the same server's round trip per call for a bare warm client, [^|]*\\| ([0-9.]+) \\|.*", "$1"));
        assertTrue(floor > 0 && floor < 1000, "the simulator answered the run's own target requests again: " + r.out());
        assertFalse(r.out().contains("refused with 429"), "the simulator never refuses a request: no 429 count: " + r.out());
        // the runs went under --dir, in a fresh folder, and the probe's files are gone
        try (var runs = Files.list(tmp)) {
            Path work = runs.findFirst().orElseThrow();
            assertTrue(Files.isRegularFile(work.resolve("run1/out/summary.json")), work.toString());
            try (var left = Files.list(work)) {
                assertEquals(List.of("run1"), left.map(p -> p.getFileName().toString()).toList()); // --warmup 0: no warm-up run
            }
        }
    }

    /** With the shared fake server, each run line says how many requests it refused with 429, also without --rpm. */
    @Test void aRunAgainstTheFakeServerCountsRequestsRefusedWith429() throws Exception {
        Path bench = Path.of("..", "shared", "bench");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(bench.resolve("fake_llm_server.py")),
                "needs ../shared/bench (the shared workload and its fake server)");
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String launch = java + " -cp " + System.getProperty("java.class.path") + " io.skillopt4j.cli.Main";
        CliRun r = CliRun.run("bench", "workload", "--searchqa", bench.toString(), "--repeat", "1", "--warmup", "0", "--launch", launch,
                "--workers", "4", "--analyst-workers", "4", "--dir", tmp.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().matches("(?s).*\\nrun 1: 153 calls, [^\\n]*, 0 requests refused with 429\\n.*"), r.out());
    }

    @Test void theDiskProbeTimesFileCreationAndLeavesNothing() throws Exception {
        double us = BenchWorkloadCommand.createMicros(tmp.resolve("a/b"), 20);
        assertTrue(us > 0 && us < 10_000_000, String.valueOf(us));
        try (var left = Files.list(tmp.resolve("a/b"))) {
            assertEquals(0, left.count());
        }
    }

    @Test void aDirThatCannotBeAFolderIsAUserError() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        CliRun r = CliRun.run("bench", "workload", "--dir", file.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--dir") && r.err().contains("a folder that can be created"), r.err());
    }

    @Test void aBadServerIsAUserError() {
        CliRun r = CliRun.run("bench", "workload", "--server", "nope");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--server") && r.err().contains("sim or fake"), r.err());
    }

    @Test void providerModesOfTheFakeServerAreRefusedOnTheSimulatorWithOneLine() {
        CliRun r = CliRun.run("bench", "workload", "--rpm", "300", "--burst", "5", "--latency-dist", "lognormal:x");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--rpm, --burst and --noise need the fake server"), r.err());
        assertTrue(r.err().contains("--latency-dist"), r.err());
    }
}
