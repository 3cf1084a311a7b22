package io.skillopt4j.temporal;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.EngineRuns;
import io.skillopt4j.train.ExecutionEngine;
import io.temporal.testing.TestWorkflowEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A coordinator that dies and comes back with the same run folder re-attaches to its stage workflows: a call still
 * in flight is awaited, a finished one is read, and neither reaches the model again.
 */
class CoordinatorRestartTest {
    @TempDir Path tmp;

    @Test
    void aRestartedCoordinatorReattachesInsteadOfCallingAgain() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(Duration.ofMillis(1500)).start()) {
            TestWorkflowEnvironment env = TemporalEngineTest.startedEnv(sim.url(), tmp.resolve("worker"), 2);
            try {
                Path out = tmp.resolve("run");
                FlatConfig cfg = EngineRuns.config(out, "engine.name=temporal");
                ModelRoles roles = Backends.roles(cfg, EngineRuns.simEnv(sim.url()));
                TemporalEngineFactory factory = new TemporalEngineFactory(env.getWorkflowClient());
                ChatRequest req = ChatRequest.builder().system("You merge edit proposals.").user("## Proposals\n[]").stage("merge").build();

                // first coordinator: starts the call, then dies while the model is still answering
                ExecutionEngine first = factory.open(new ExecutionEngine.RunContext(cfg, out, new UsageMeter()));
                ChatModel m1 = first.optimizer(roles.optimizer());
                CompletableFuture<ChatResponse> lost = CompletableFuture.supplyAsync(() -> m1.chat(req));
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (sim.requests() == 0 && System.nanoTime() < until) Thread.sleep(20);
                assertEquals(1, sim.requests(), "the call reached the model");
                first.close();
                lost.cancel(true);

                // the same run folder again: same run id, same workflow id, so it waits for the call in flight
                UsageMeter meter = new UsageMeter();
                ExecutionEngine second = factory.open(new ExecutionEngine.RunContext(cfg, out, meter));
                ChatResponse r = second.optimizer(roles.optimizer()).chat(req);
                assertFalse(r.text().isEmpty());
                assertEquals(1, sim.requests(), "re-attached to the running workflow: no second model call");
                assertEquals(1, meter.byStage().get("merge").calls(), "the call's usage is counted once, in the coordinator that got it");
                second.close();

                // a third coordinator asking again reads the finished workflow's result; the next occurrence is new
                ExecutionEngine third = factory.open(new ExecutionEngine.RunContext(cfg, out, new UsageMeter()));
                assertEquals(r.text(), third.optimizer(roles.optimizer()).chat(req).text());
                assertEquals(1, sim.requests(), "read the finished workflow's result");
                third.optimizer(roles.optimizer()).chat(req);
                assertEquals(2, sim.requests(), "a second identical request in one run is a call of its own");
                third.close();
            } finally {
                env.close();
            }
        }
    }
}
