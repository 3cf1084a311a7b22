package io.skillopt4j.cli;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test void aColdRunAgainstTheSimulatorPrintsTheTable() {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String launch = java + " -cp " + System.getProperty("java.class.path") + " io.skillopt4j.cli.Main";
        CliRun r = CliRun.run("bench", "workload", "--repeat", "1", "--launch", launch, "--workers", "2", "--analyst-workers", "2",
                "--cfg-options", "train.num_epochs=1", "train.background_eval=false");
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("| launch → first model call (s) |"), r.out());
        assertTrue(r.out().contains("| in-loop cost per call, first → last call / calls (ms) |"), r.out());
        int calls = Integer.parseInt(r.out().replaceAll("(?s).*\\| model calls \\| (\\d+) \\|.*", "$1"));
        assertTrue(calls > 50, r.out());
    }

    @Test void aBadServerIsAUserError() {
        CliRun r = CliRun.run("bench", "workload", "--server", "nope");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--server") && r.err().contains("sim or fake"), r.err());
    }
}
