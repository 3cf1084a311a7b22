package io.skillopt4j.temporal;

import io.temporal.activity.ActivityOptions;
import io.temporal.activity.DynamicActivity;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.converter.EncodedValues;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

import java.time.Duration;
import java.util.UUID;

/**
 * Stateless. For {@code skillopt bench engine}: a workflow running one no-op activity, started eagerly as the engine's
 * are, with no SkillOpt4J code in the path; its round trip is what server and SDK cost, the engine's excess ours.
 */
public final class EngineFloor {
    /** Immutable. Mean wall time and this JVM's CPU time per round trip, in ms. */
    public record Figure(double wallMs, double cpuMs) {}

    private EngineFloor() {}

    @WorkflowInterface
    public interface FloorWorkflow {
        @WorkflowMethod
        String run(String in);
    }

    /** Workflow code: one activity on the floor's queue. */
    public static final class FloorWorkflowImpl implements FloorWorkflow {
        @Override public String run(String in) {
            return Workflow.newUntypedActivityStub(ActivityOptions.newBuilder().setTaskQueue(queue(Workflow.getInfo().getTaskQueue()))
                    .setStartToCloseTimeout(Duration.ofSeconds(60)).build()).execute("noop", String.class, in);
        }
    }

    private static String queue(String workflowQueue) { return workflowQueue + ".activity"; }

    /** Runs {@code warmup} then {@code calls} sequential round trips against the frontend of {@code s}. */
    public static Figure measure(TemporalSettings s, int warmup, int calls) {
        String wq = s.taskQueue() + ".floor-" + UUID.randomUUID().toString().substring(0, 8);
        WorkflowClient coordinator = s.connect(), worker = s.connect();
        WorkerFactory cf = WorkerFactory.newInstance(coordinator), wf = WorkerFactory.newInstance(worker);
        try {
            cf.newWorker(wq).registerWorkflowImplementationTypes(FloorWorkflowImpl.class);
            wf.newWorker(queue(wq), WorkerOptions.newBuilder().setMaxConcurrentActivityExecutionSize(8).build())
                    .registerActivitiesImplementations((DynamicActivity) (EncodedValues args) -> args.get(0, String.class));
            cf.start();
            wf.start();
            for (int i = 0; i < warmup; i++) call(coordinator, wq, "w" + i);
            long t0 = System.nanoTime(), c0 = cpuNanos();
            for (int i = 0; i < calls; i++) call(coordinator, wq, "m" + i);
            return new Figure((System.nanoTime() - t0) / 1e6 / calls, (cpuNanos() - c0) / 1e6 / calls);
        } finally {
            cf.shutdownNow();
            wf.shutdownNow();
            coordinator.getWorkflowServiceStubs().shutdownNow();
            worker.getWorkflowServiceStubs().shutdownNow();
        }
    }

    private static void call(WorkflowClient c, String wq, String id) {
        WorkflowStub stub = c.newUntypedWorkflowStub("FloorWorkflow", WorkflowOptions.newBuilder().setWorkflowId(wq + "-" + id)
                .setTaskQueue(wq).setDisableEagerExecution(false).build());
        stub.start(id);
        stub.getResult(String.class);
    }

    /** CPU time of this JVM, in ns. */
    public static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
