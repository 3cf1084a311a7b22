package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.env.RemoteItems;

/** Immutable. The default engine: rollouts on the benchmark's worker threads, optimizer calls on the trainer's pool. */
final class LocalEngine implements ExecutionEngine {
    static final ExecutionEngine.Factory FACTORY = new ExecutionEngine.Factory() {
        @Override public String name() { return "local"; }
        @Override public ExecutionEngine open(RunContext run) { return INSTANCE; }
    };
    private static final LocalEngine INSTANCE = new LocalEngine();

    private LocalEngine() {}

    @Override public String name() { return "local"; }
    @Override public ChatModel optimizer(ChatModel model) { return model; }
    @Override public RemoteItems rolloutItems() { return null; }
    @Override public void close() {}
}
