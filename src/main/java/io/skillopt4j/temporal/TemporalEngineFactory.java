package io.skillopt4j.temporal;

import io.skillopt4j.train.ExecutionEngine;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.WorkerFactory;

/**
 * Immutable. {@code engine.name: temporal}: hosts the run's stage workflows in the coordinator, whose calls run on
 * the workers ({@code skillopt worker}). Registered in META-INF/services, so it is loaded only when a config names it.
 */
public final class TemporalEngineFactory implements ExecutionEngine.Factory {
    private final WorkflowClient client;

    /** Connects per run from the config's engine keys. */
    public TemporalEngineFactory() { this(null); }

    /** Uses {@code client}, whose owner hosts the stage workflows ({@link EngineWorker#hostWorkflows}). */
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
