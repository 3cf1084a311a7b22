package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.env.RemoteItems;

/** Immutable. The default engine, its own factory: rollouts on the benchmark's workers, optimizer calls on the pool. */
final class LocalEngine implements ExecutionEngine, ExecutionEngine.Factory {
    static final LocalEngine FACTORY = new LocalEngine();

    private LocalEngine() {}

    @Override public String name() { return "local"; }
    @Override public ExecutionEngine open(RunContext run) { return this; }
    @Override public ChatModel optimizer(ChatModel model) { return model; }
    @Override public RemoteItems rolloutItems() { return null; }
    @Override public void close() {}
}
