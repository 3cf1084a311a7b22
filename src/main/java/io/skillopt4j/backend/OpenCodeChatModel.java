package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.CliPrompt;
import io.skillopt4j.backend.internal.OpenCodeStream;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.config.ModelKey;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe. {@code opencode_exec} in the chat (optimizer) role: one run per call in a temporary folder, the
 * flattened messages on stdin, every permission denied (the model is offered no tool).
 */
public final class OpenCodeChatModel extends AbstractChatModel {
    private final String binary;
    private final String agent;

    private OpenCodeChatModel(Builder b) {
        super("opencode_exec", b);
        this.binary = b.binary == null || b.binary.isBlank() ? ModelKey.OPENCODE_EXEC_PATH.text() : b.binary;
        this.agent = b.agent == null ? "" : b.agent.strip();
    }

    public static Builder builder() { return new Builder(); }

    @Override protected ChatResponse doChat(ChatRequest r) {
        requireTextOnly(r, "OpenCode runs with every permission denied");
        Duration timeout = r.timeout() == null ? ModelKey.OPENCODE_CHAT_TIMEOUT.seconds() : r.timeout();
        String system = CliPrompt.system(r);
        String prompt = (system.isEmpty() ? "" : system + "\n\n") + CliPrompt.body(r, "tools", false, List.of());
        return inTempDir("skillopt_opencode_", tmp -> {
            Proc.Result res;
            try {
                res = Proc.run(OpenCodeExecAgent.command(binary, tmp, agent, model), tmp,
                        OpenCodeExecAgent.childEnv(env, Map.of("*", "deny")), prompt, timeout);
            } catch (IOException e) {
                throw AgentErrors.cannotRun(backend, binary, "OPENCODE_EXEC_PATH", e);
            }
            ParsedTrace t = OpenCodeStream.parse(res.stdout());
            if (res.timedOut()) throw AgentErrors.timeout(backend, "OpenCode CLI", timeout);
            BackendException failure = OpenCodeExecAgent.failure(backend, t, res);
            if (failure != null) throw failure;
            if (t.finalText().isEmpty()) throw new BackendException.Retriable(backend, 0, backend + ": OpenCode returned no text", null);
            return new ChatResponse(t.finalText(), List.of(), t.usage(), res.elapsed(), model, "",
                    Billing.reported(ClaudeCliChatModel.reportedCost(t)));
        });
    }

    @Override public String toString() { return "OpenCodeChatModel[binary=" + binary + ", model=" + model + ", role=" + role + "]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private String binary = ModelKey.OPENCODE_EXEC_PATH.text();
        private String agent = "";

        private Builder() { model = ""; }

        public Builder binary(String b) { this.binary = b; return this; }
        /** Blank: OpenCode's default. */
        public Builder agent(String a) { this.agent = a; return this; }

        @Override public OpenCodeChatModel build() { return new OpenCodeChatModel(this); }
    }
}
