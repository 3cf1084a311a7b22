package io.skillopt4j.temporal;

import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.EngineRuns;
import io.skillopt4j.train.TrainingResult;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The run's cost ledger on Temporal's test server: every call a worker makes is charged to the coordinator's
 * cost_ledger.jsonl (entry for entry the local engine's), also when a worker dies mid-run, and a dollar cap holds
 * across workers.
 */
class DistributedLedgerTest {
    @TempDir Path tmp;

    private static List<Map<String, Object>> ledger(Path run) throws Exception {
        return Files.readAllLines(run.resolve("cost_ledger.jsonl")).stream().map(Json::parseObject).toList();
    }

    private static double spent(Path run) throws Exception {
        return ledger(run).stream().mapToDouble(e -> e.get("usd") instanceof Number n ? n.doubleValue() : 0).sum();
    }

    @Test
    void twoWorkersOneStoppedMidRunChargeEveryCallToTheCoordinatorsLedger() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(java.time.Duration.ofMillis(20)).start()) {
            Path local = tmp.resolve("local"), remote = tmp.resolve("temporal");
            EngineRuns.train(EngineRuns.config(local), local, sim.url(), null);
            long localCalls = sim.requests();

            TestWorkflowEnvironment env = TemporalEngineTest.startedEnv(sim.url(), tmp.resolve("w1"), 4);
            WorkerFactory second = WorkerFactory.newInstance(env.getWorkflowClient());
            try {
                EngineWorker.pollActivities(second, TemporalSettings.of("localhost:7233", "skillopt"), new EngineWorker.Capacity(4, 0, 0), "w2",
                        new WorkerActivities("w2", tmp.resolve("w2"), TemporalEngineTest.simAssembly(sim.url())));
                second.start();
                long stopAfter = sim.requests() + localCalls / 3;
                Thread killer = new Thread(() -> {
                    try {
                        while (sim.requests() < stopAfter) Thread.sleep(5);
                        second.shutdownNow(); // mid-run: its activities in flight are interrupted and run again on w1
                    } catch (InterruptedException ignored) { /* test over */ }
                });
                killer.setDaemon(true);
                killer.start();
                EngineRuns.train(EngineRuns.config(remote, "engine.name=temporal", "engine.heartbeat_s=2"), remote, sim.url(),
                        new TemporalEngineFactory(env.getWorkflowClient()));
                killer.join(5000);
                assertTrue(second.isShutdown(), "w2 was stopped mid-run");
            } finally {
                second.shutdownNow();
                env.close();
            }
            // RunDiff compares cost_ledger.jsonl entry for entry (order aside)
            assertEquals(List.of(), EngineRuns.diff(local, remote), "identical decisions, skills, scores, tokens and ledger");
            List<Map<String, Object>> entries = ledger(remote);
            assertEquals(ledger(local).size(), entries.size());
            assertTrue(entries.size() > 100, "one entry per call, not one per stage: " + entries.size());
            assertTrue(entries.stream().allMatch(e -> !e.containsKey("calls")), "no merged lines");
            assertTrue(entries.stream().anyMatch(e -> "rollout".equals(e.get("stage"))) && entries.stream().anyMatch(e -> "analyst".equals(e.get("stage"))));
            var workers = io.skillopt4j.frames.RunFrames.load(remote).engineWorkers();
            assertEquals(2, workers.rowCount(), "both workers ran activities");
        }
    }

    @Test
    void aDollarCapStopsADistributedRunBeforeItIsCrossed() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path local = tmp.resolve("local"), remote = tmp.resolve("temporal");
            EngineRuns.train(EngineRuns.config(local), local, sim.url(), null);
            double full = spent(local);
            double cap = full / 3;
            TestWorkflowEnvironment env = TemporalEngineTest.startedEnv(sim.url(), tmp.resolve("w1"), 4);
            TrainingResult r;
            try {
                r = EngineRuns.train(EngineRuns.config(remote, "engine.name=temporal", "budget.max_usd=" + cap), remote, sim.url(),
                        new TemporalEngineFactory(env.getWorkflowClient()));
            } finally {
                env.close();
            }
            assertTrue(r.stopped(), "the cap stopped the run");
            assertEquals("budget", r.summary().get("stop_reason"));
            double spent = spent(remote);
            assertTrue(spent <= cap, "spent $" + spent + " within the cap $" + cap);
            // each call is reserved at its worst case (its max_completion_tokens) before it is sent, so a run stops well short
            // of the cap, locally too; what matters is that the workers' calls are charged and the cap is never crossed
            assertTrue(spent > cap / 10, "the workers' calls are charged: $" + spent + " of $" + cap);
            assertTrue(ledger(remote).stream().filter(e -> "rollout".equals(e.get("stage"))).count() > 10, "rollout items' calls are in the ledger");
            assertFalse(Files.exists(remote.resolve("summary.json")), "a stopped run is resumable, not finished");
        }
    }
}
