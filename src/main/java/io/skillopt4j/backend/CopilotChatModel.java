package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.CopilotStream;
import io.skillopt4j.backend.internal.HttpErrors;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Thread-safe. {@code copilot_chat}: the GitHub Copilot CLI as a chat model, with every tool scoped off:
 * {@code copilot -p <prompt> --output-format json --stream off --no-color --log-level none
 * --disable-builtin-mcps --no-custom-instructions --available-tools= [--model m]}. The child environment
 * loses {@code COPILOT_ALLOW_ALL} and gets {@code COPILOT_HOME} when a home is set. Usage is zero (the CLI
 * reports none) but calls are counted. Tools and images are refused before anything is spawned.
 */
public final class CopilotChatModel extends AbstractChatModel {
    private final String binary;
    private final String home;
    private final Map<String, String> env;

    private CopilotChatModel(Builder b) {
        super("copilot_chat", b);
        this.binary = b.binary == null || b.binary.isBlank() ? ModelKey.COPILOT_EXEC_PATH.text() : b.binary;
        this.home = b.home;
        this.env = b.env == null ? System.getenv() : Map.copyOf(b.env);
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
        List<String> parts = new ArrayList<>();
        for (ChatMessage m : ms) {
            String c = m.content().strip();
            if (c.isEmpty()) continue;
            parts.add(m.role().equals("user") ? c : "[" + m.role() + "]\n" + c);
        }
        return String.join(sep, parts);
    }

    /** Returns upstream's child environment: scrubbed, minus COPILOT_ALLOW_ALL, plus COPILOT_HOME if set. */
    static Map<String, String> childEnv(Map<String, String> parent, String home) {
        Map<String, String> extra = new HashMap<>();
        if (home != null && !home.isBlank()) extra.put("COPILOT_HOME", home);
        Map<String, String> e = new LinkedHashMap<>(Proc.scrubbedEnv(parent, Set.of("GH_TOKEN", "GITHUB_TOKEN", "COPILOT_*", "GH_HOST"), extra));
        e.remove("COPILOT_ALLOW_ALL");
        return e;
    }

    List<String> command(String prompt) {
        List<String> cmd = new ArrayList<>(List.of(binary, "-p", prompt, "--output-format", "json", "--stream", "off", "--no-color",
                "--log-level", "none", "--disable-builtin-mcps", "--no-custom-instructions", "--available-tools="));
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        return cmd;
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        if (!r.tools().isEmpty() || (r.toolChoice() != null && !r.toolChoice().isBlank())) {
            throw new BackendException.NonRetriable(backend, 0, backend + ": tools are not supported (the Copilot CLI runs with --available-tools=)", null);
        }
        if (r.messages().stream().anyMatch(m -> !m.imageUrls().isEmpty())) {
            throw new BackendException.NonRetriable(backend, 0, backend + ": images are not supported; only text parts can be sent", null);
        }
        Duration timeout = r.timeout() == null ? ModelKey.COPILOT_CHAT_TIMEOUT.seconds() : r.timeout();
        Proc.Result res;
        try {
            res = Proc.run(command(prompt(r)), null, childEnv(env, home), null, timeout);
        } catch (IOException e) {
            throw new BackendException.NonRetriable(backend, 0, backend + ": cannot run Copilot CLI '" + binary + "' (set COPILOT_EXEC_PATH): " + e.getMessage(), e);
        }
        if (res.timedOut()) throw new BackendException.Retriable(backend, 0, backend + ": Copilot CLI timed out after " + timeout.toSeconds() + "s", null);
        if (res.exitCode() != 0) {
            String out = res.stderr().isBlank() ? res.stdout() : res.stderr();
            throw new BackendException.Retriable(backend, 0, backend + ": Copilot CLI failed with exit code " + res.exitCode() + ": " + clip(out), null);
        }
        ParsedTrace t = CopilotStream.parse(res.stdout());
        if (t.finalText().isEmpty()) throw new BackendException.Retriable(backend, 0, backend + ": Copilot CLI returned no response", null);
        return new ChatResponse(t.finalText(), List.of(), Usage.ZERO, res.elapsed(), model, "");
    }

    private static String clip(String s) {
        String t = HttpErrors.oneLine(Redactor.scrub(s == null ? "" : s));
        return t.length() > 4000 ? t.substring(t.length() - 4000) : t;
    }

    @Override public String toString() { return "CopilotChatModel[binary=" + binary + ", model=" + model + ", role=" + role + "]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private String binary = ModelKey.COPILOT_EXEC_PATH.text();
        private String home;
        private Map<String, String> env;

        private Builder() { model = ""; }

        public Builder binary(String b) { this.binary = b; return this; }
        /** Isolated COPILOT_HOME for the child (skips the user's MCP servers and instructions). */
        public Builder home(String h) { this.home = h; return this; }
        public Builder env(Map<String, String> e) { this.env = e; return this; }

        @Override public CopilotChatModel build() { return new CopilotChatModel(this); }
    }
}
