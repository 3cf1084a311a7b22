package io.skillopt4j.temporal;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.EngineRuns;
import io.skillopt4j.train.ExecutionEngine;
import io.temporal.testing.TestWorkflowEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A stage whose results are not handed over (its workflow runs in another process, e.g. a second coordinator
 * polling the same queue) still gets them: from the workflow's own result, polled once none came for a while.
 */
class ResultFallbackTest {
    @TempDir Path tmp;

    @Test
    void resultsComeFromTheWorkflowWhenNoneAreHandedOver() {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            TestWorkflowEnvironment env = TemporalEngineTest.startedEnv(sim.url(), tmp.resolve("worker"), 2);
            try {
                Handoff.off(true);
                var cfg = EngineRuns.config(tmp.resolve("run"), "engine.name=temporal");
                ModelRoles roles = Backends.roles(cfg, EngineRuns.simEnv(sim.url()));
                ExecutionEngine engine = new TemporalEngineFactory(env.getWorkflowClient())
                        .open(new ExecutionEngine.RunContext(cfg, tmp.resolve("run"), roles.usage()));
                try {
                    ChatRequest r = ChatRequest.builder().system("You merge edit proposals. Reply with JSON.")
                            .user("## Current Skill\n# Skill\n\n## Proposals\n[]").stage("merge").retries(1).build();
                    ChatModel remote = engine.optimizer(roles.optimizer());
                    assertEquals(roles.optimizer().chat(r).text(), remote.chat(r).text());
                } finally {
                    engine.close();
                }
            } finally {
                Handoff.off(false);
                env.close();
            }
        }
    }
}
