package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.CopilotSession;
import io.skillopt4j.backend.internal.CopilotStream;
import io.skillopt4j.backend.internal.Proc;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Thread-safe. {@code copilot_chat}: the GitHub Copilot CLI as a chat model with every tool scoped off, the prompt on
 * stdin. Usage is zero: the CLI reports none.
 */
public final class CopilotChatModel extends AbstractChatModel {
    /** A tool no Copilot version has: an empty {@code --available-tools=} would restrict nothing. */
    static final String NO_TOOLS = "skillopt_no_tools";

    private final String binary;
    private final String home;

    private CopilotChatModel(Builder b) {
        super("copilot_chat", b);
        this.binary = b.binary == null || b.binary.isBlank() ? ModelKey.COPILOT_EXEC_PATH.text() : b.binary;
        this.home = b.home;
    }

    public static Builder builder() { return new Builder(); }

    /** Upstream's prompt: system + separator + user, or every message with non-user roles labelled. */
    static String prompt(ChatRequest r) {
        String sep = "\n\n---\n\n";
        List<ChatMessage> ms = r.messages();
        if (ms.size() == 2 && ms.get(0).role().equals("system") && ms.get(1).role().equals("user")) {
            String s = ms.get(0).content().strip();
            String u = ms.get(1).content().strip();
            return s.isEmpty() ? u : u.isEmpty() ? s : s + sep + u;
        }
        return ms.stream().filter(m -> !m.content().isBlank())
                .map(m -> m.role().equals("user") ? m.content().strip() : "[" + m.role() + "]\n" + m.content().strip())
                .collect(java.util.stream.Collectors.joining(sep));
    }

    /** Upstream's: scrubbed, minus COPILOT_ALLOW_ALL, plus {@code extra} (the session's COPILOT_HOME). */
    static Map<String, String> childEnv(Map<String, String> parent, Map<String, String> extra) {
        Map<String, String> e = new LinkedHashMap<>(Proc.scrubbedEnv(parent, Set.of("GH_TOKEN", "GITHUB_TOKEN", "COPILOT_*", "GH_HOST"), extra));
        e.remove("COPILOT_ALLOW_ALL");
        return e;
    }

    /** The typed failure a Copilot run reported, or null. */
    static BackendException failure(String backend, ParsedTrace t, Proc.Result r) {
        boolean auth = "authentication".equals(t.meta().get("error_type"));
        return AbstractExecAgent.cliFailure(backend, "Copilot CLI", "model provider's", t, r,
                auth ? AgentErrors.of(backend, backend + ": Copilot CLI authentication failed: " + t.error(), false) : null);
    }

    List<String> command(List<String> session) {
        List<String> cmd = new ArrayList<>(List.of(binary, "--output-format", "json", "--stream", "off", "--no-color",
                "--log-level", "none", "--disable-builtin-mcps", "--no-custom-instructions", "--available-tools=" + NO_TOOLS));
        cmd.addAll(session);
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        return cmd;
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        requireTextOnly(r, "the Copilot CLI runs with no tool available");
        Duration timeout = r.timeout() == null ? ModelKey.COPILOT_CHAT_TIMEOUT.seconds() : r.timeout();
        Proc.Result res;
        try (CopilotSession session = CopilotSession.open(home, env)) {
            res = Proc.run(command(session.args()), null, childEnv(env, session.env()), prompt(r), timeout);
        } catch (IOException e) {
            throw AgentErrors.cannotRun(backend, binary, "COPILOT_EXEC_PATH", e);
        }
        if (res.timedOut()) throw AgentErrors.timeout(backend, "Copilot CLI", timeout);
        ParsedTrace t = CopilotStream.parse(res.stdout());
        BackendException failure = failure(backend, t, res);
        if (failure != null) throw failure;
        if (t.finalText().isEmpty()) throw new BackendException.Retriable(backend, 0, backend + ": Copilot CLI returned no response", null);
        return new ChatResponse(t.finalText(), List.of(), Usage.ZERO, res.elapsed(), model, "");
    }

    @Override public String toString() { return "CopilotChatModel[binary=" + binary + ", model=" + model + ", role=" + role + "]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private String binary = ModelKey.COPILOT_EXEC_PATH.text();
        private String home;

        private Builder() { model = ""; }

        public Builder binary(String b) { this.binary = b; return this; }
        /** COPILOT_HOME of the child (blank: a temporary one where no stored login is needed, else the user's). */
        public Builder home(String h) { this.home = h; return this; }

        @Override public CopilotChatModel build() { return new CopilotChatModel(this); }
    }
}
