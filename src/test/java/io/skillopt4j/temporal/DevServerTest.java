package io.skillopt4j.temporal;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.*;

/** The dev server without its clock's lock-event list still runs timers, workflows and activities. */
class DevServerTest {
    @WorkflowInterface
    public interface Sleeper {
        @WorkflowMethod
        String run(String in);
    }

    /** A server timer: it fires on the clock's pump, which unlocks its handle (the path that scanned the list). */
    public static final class SleeperImpl implements Sleeper {
        @Override public String run(String in) {
            Workflow.sleep(Duration.ofMillis(30));
            return in + "!";
        }
    }

    @Test
    void theLeanServerRunsTimersWorkflowsAndActivities() {
        try (DevServer server = DevServer.start(0)) {
            assertTrue(server.keepsNoLockEvents(), "the test server's clock fields moved: DevServer.forgetLockEvents needs a look");
            TemporalSettings s = TemporalSettings.of(server.address(), "devserver-test");
            WorkflowClient client = s.connect();
            WorkerFactory f = WorkerFactory.newInstance(client);
            try {
                f.newWorker("sleepers").registerWorkflowImplementationTypes(SleeperImpl.class);
                f.start();
                for (int i = 0; i < 3; i++) {
                    Sleeper w = client.newWorkflowStub(Sleeper.class, WorkflowOptions.newBuilder().setTaskQueue("sleepers")
                            .setWorkflowId("sleeper-" + i).build());
                    assertEquals("x" + i + "!", w.run("x" + i));
                }
                EngineFloor.Figure floor = EngineFloor.measure(s, 0, 5); // workflow + activity round trips
                assertTrue(floor.wallMs() > 0);
            } finally {
                f.shutdownNow();
                client.getWorkflowServiceStubs().shutdownNow();
            }
        }
    }
}
