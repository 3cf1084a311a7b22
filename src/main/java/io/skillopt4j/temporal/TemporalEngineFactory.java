package io.skillopt4j.temporal;

import io.skillopt4j.train.ExecutionEngine;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.WorkerFactory;

/**
 * Immutable. {@code engine.name: temporal}: connects to the cluster of {@code engine.address} and hosts the run's
 * stage workflows in this (the coordinator's) process; rollout items and optimizer calls run on the workers polling
 * {@code <task_queue>.rollout} and {@code <task_queue>.optimizer} ({@code skillopt worker}). Registered in
 * META-INF/services, so the trainer loads it only when a config names it.
 */
public final class TemporalEngineFactory implements ExecutionEngine.Factory {
    private final WorkflowClient client;

    /** The factory the trainer finds by name: connects per run from the config's engine keys. */
    public TemporalEngineFactory() { this(null); }

    /**
     * A factory using {@code client} (e.g. a {@code TestWorkflowEnvironment}'s) whose owner also hosts the stage
     * workflows ({@link EngineWorker#hostWorkflows}); null = connect from the config.
     */
    public TemporalEngineFactory(WorkflowClient client) { this.client = client; }

    @Override public String name() { return "temporal"; }

    @Override
    public ExecutionEngine open(ExecutionEngine.RunContext run) {
        TemporalSettings s = TemporalSettings.from(run.config());
        if (client != null) return new TemporalEngine(run, s, client, null);
        WorkflowClient c = s.connect();
        WorkerFactory workers = WorkerFactory.newInstance(c);
        EngineWorker.hostWorkflows(workers, s);
        workers.start();
        return new TemporalEngine(run, s, c, workers);
    }
}
