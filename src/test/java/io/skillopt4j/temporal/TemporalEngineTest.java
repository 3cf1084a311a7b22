package io.skillopt4j.temporal;

import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.EngineRuns;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.*;

/** The trainer on Temporal's in-memory TestWorkflowEnvironment writes the local engine's run folder. */
class TemporalEngineTest {
    @TempDir Path tmp;

    /** A worker assembly whose models talk to the simulator only. */
    static WorkerActivities.Assembly simAssembly(String simUrl) {
        return WorkerActivities.fromEnvironment(EngineRuns.simEnv(simUrl));
    }

    /**
     * A started in-memory Temporal environment hosting the workflows, with one worker ("w1", {@code slots} rollout
     * slots, folder {@code workerDir}) whose models talk to the simulator; the caller closes it.
     */
    static TestWorkflowEnvironment startedEnv(String simUrl, Path workerDir, int slots) {
        TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
        try {
            TemporalSettings s = TemporalSettings.of("localhost:7233", "skillopt");
            EngineWorker.hostWorkflows(env.getWorkerFactory(), s);
            EngineWorker.pollActivities(env.getWorkerFactory(), s, new EngineWorker.Capacity(slots, 0, 0), "w1",
                    new WorkerActivities("w1", workerDir, simAssembly(simUrl)));
            env.start();
            return env;
        } catch (RuntimeException | Error e) {
            env.close();
            throw e;
        }
    }

    @Test
    void trainingOnTheTestWorkflowEnvironmentWritesTheLocalEnginesRun() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path local = tmp.resolve("local"), remote = tmp.resolve("temporal");
            EngineRuns.train(EngineRuns.config(local), local, sim.url(), null);

            TestWorkflowEnvironment env = startedEnv(sim.url(), tmp.resolve("worker"), 6);
            try {
                EngineRuns.train(EngineRuns.config(remote, "engine.name=temporal"), remote, sim.url(), new TemporalEngineFactory(env.getWorkflowClient()));
            } finally {
                env.close();
            }

            assertEquals(List.of(), EngineRuns.diff(local, remote), "identical decisions, skills, scores, tokens");
            List<String> rows = Files.readAllLines(remote.resolve("engine/activities.jsonl"));
            Set<String> types = new TreeSet<>();
            for (String r : rows) types.add(String.valueOf(Json.parseObject(r).get("type")));
            assertTrue(types.containsAll(Set.of("rollout", "analyst", "merge", "ranking", "slow_update", "meta_skill")), types.toString());
            Map<String, Object> first = Json.parseObject(rows.get(0));
            assertEquals("w1", first.get("worker"));
            assertTrue(((Number) first.get("queue_ms")).longValue() >= 0);
            assertTrue(Files.list(remote.resolve("engine/blobs")).count() > 10, "payloads went through the blob store");

            var workers = io.skillopt4j.frames.RunFrames.load(remote).engineWorkers();
            assertEquals(1, workers.rowCount());
            assertEquals(rows.size(), workers.longColumn("activities").getLong(0));
            assertEquals(0, workers.longColumn("retries").getLong(0));
            assertTrue(workers.longColumn("rollout_items").getLong(0) > 0 && workers.longColumn("optimizer_calls").getLong(0) > 0);
            assertTrue(io.skillopt4j.frames.Report.of(List.of(io.skillopt4j.frames.RunFrames.load(remote))).html().contains("<h3>Engine workers</h3>"));
            assertEquals(0, io.skillopt4j.frames.RunFrames.load(local).engineWorkers().rowCount(), "local runs have no engine table");
        }
    }
}
