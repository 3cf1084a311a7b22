package io.skillopt4j.temporal;

import io.temporal.client.WorkflowClient;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;

/**
 * Not thread-safe. A worker process's pollers: {@code slots} concurrent activities per queue, each queue optionally
 * rate-capped for all workers at once (Temporal's task-queue rate limit; the provider's limit).
 */
public final class EngineWorker implements AutoCloseable {
    /** Immutable. A worker's capacity: concurrent activities per queue and task-queue rate caps (0 = none). */
    public record Capacity(int slots, double rolloutPerSecond, double optimizerPerSecond) {
        public Capacity {
            if (slots < 1) throw new io.skillopt4j.ConfigException("--slots must be >= 1, got " + slots);
            if (rolloutPerSecond < 0 || optimizerPerSecond < 0) throw new io.skillopt4j.ConfigException("rate limits must be >= 0");
        }
    }

    private final WorkerFactory factory;

    private EngineWorker(WorkerFactory factory) { this.factory = factory; }

    /** Connects, registers {@code activities} on both activity queues and starts polling. */
    public static EngineWorker start(WorkflowClient client, TemporalSettings s, Capacity c, String identity, WorkerActivities activities) {
        WorkerFactory f = WorkerFactory.newInstance(client);
        pollActivities(f, s, c, identity, activities);
        f.start();
        return new EngineWorker(f);
    }

    /** Adds the activity pollers to {@code f} (not started). */
    public static void pollActivities(WorkerFactory f, TemporalSettings s, Capacity c, String identity, WorkerActivities activities) {
        poll(f, s.rolloutQueue(), c.slots(), c.rolloutPerSecond(), identity).registerActivitiesImplementations(activities);
        poll(f, s.optimizerQueue(), c.slots(), c.optimizerPerSecond(), identity).registerActivitiesImplementations(activities);
    }

    /** Adds the coordinator's stage-workflow poller to {@code f} (not started). */
    public static void hostWorkflows(WorkerFactory f, TemporalSettings s) {
        f.newWorker(s.taskQueue()).registerWorkflowImplementationTypes(StageWorkflowImpl.class);
    }

    private static Worker poll(WorkerFactory f, String queue, int slots, double perSecond, String identity) {
        WorkerOptions.Builder o = WorkerOptions.newBuilder().setMaxConcurrentActivityExecutionSize(slots).setIdentity(identity);
        if (perSecond > 0) o.setMaxTaskQueueActivitiesPerSecond(perSecond);
        return f.newWorker(queue, o.build());
    }

    /** Blocks until the worker stops (a JVM shutdown). */
    public void awaitTermination() throws InterruptedException {
        while (!factory.isTerminated()) factory.awaitTermination(1, java.util.concurrent.TimeUnit.HOURS);
    }

    /** Stops polling; activities in flight are abandoned and retried elsewhere after their heartbeat timeout. */
    @Override public void close() {
        factory.shutdownNow();
        factory.getWorkflowClient().getWorkflowServiceStubs().shutdownNow();
    }
}
