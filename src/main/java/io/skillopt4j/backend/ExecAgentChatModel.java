package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.CliPrompt;

/**
 * Thread-safe. An exec agent seen as a chat model (the target role of cursor_exec/copilot_exec): each call
 * runs the agent once in a fresh temp workspace with the flattened messages as its task and returns the
 * agent's final message. Tools and images are not supported.
 */
public final class ExecAgentChatModel extends AbstractChatModel {
    private final ExecAgent agent;

    private ExecAgentChatModel(Builder b) {
        super(b.agent.backend(), b.model(b.agent.model()));
        this.agent = b.agent;
    }

    public static Builder builder(ExecAgent agent) { return new Builder(agent); }

    @Override protected ChatResponse doChat(ChatRequest r) {
        if (!r.tools().isEmpty()) throw new BackendException.NonRetriable(backend, 0, backend + ": tools are not supported when an exec agent is used as a chat model", null);
        return inTempDir("skillopt_exec_chat_", tmp -> {
            String system = CliPrompt.system(r);
            String prompt = (system.isEmpty() ? "" : system + "\n\n") + CliPrompt.body(r, "tools", false, java.util.List.of());
            ExecResult res = agent.run(new ExecTask("chat", prompt, "", tmp.resolve("work"), tmp.resolve("traces"), r.timeout(), null));
            // a failed call has thrown already, after the agent's own retries; this is an agent that answered nothing
            if (!res.ok()) throw new BackendException.Retriable(backend, 0, res.error(), null);
            return new ChatResponse(res.finalMessage(), java.util.List.of(), res.usage(), res.latency(), model, "");
        });
    }

    /** The agent retries its failed attempts itself (within the call's timeout); no second loop around it. */
    @Override protected boolean retriesInTransport() { return true; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private final ExecAgent agent;

        private Builder(ExecAgent agent) { this.agent = java.util.Objects.requireNonNull(agent, "agent"); }

        @Override public ExecAgentChatModel build() { return new ExecAgentChatModel(this); }
    }
}
