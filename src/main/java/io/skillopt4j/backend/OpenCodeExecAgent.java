package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.AgentErrors;
import io.skillopt4j.backend.internal.OpenCodeStream;
import io.skillopt4j.backend.internal.Proc;
import io.skillopt4j.config.ModelKey;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Thread-safe. {@code opencode_exec}: the OpenCode CLI as an agent, with upstream's argv and environment
 * ({@code OpenCodeCliBackend}), the prompt on stdin, permissions allowing only what a rollout needs, and no session
 * stored. Steps, usage, cost and typed failures come from its JSON events.
 */
public final class OpenCodeExecAgent extends AbstractExecAgent {
    /** What the child may see besides the basics: its own settings and the keys of the providers it ships. */
    static final Set<String> CHILD_ENV = Set.of("OPENCODE_*", "XDG_STATE_HOME", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY",
            "ANTHROPIC_BASE_URL", "OPENROUTER_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY",
            "DEEPSEEK_API_KEY", "XAI_API_KEY", "AZURE_OPENAI_API_KEY", "AZURE_RESOURCE_NAME");
    static final Map<String, String> FIXED_ENV = Map.of("NO_COLOR", "1", "OPENCODE_PURE", "1", "OPENCODE_DISABLE_AUTOUPDATE", "1",
            "OPENCODE_DISABLE_EXTERNAL_SKILLS", "1", "OPENCODE_DISABLE_PROJECT_CONFIG", "1", "OPENCODE_DISABLE_SHARE", "1",
            "OPENCODE_DISABLE_TERMINAL_TITLE", "1");

    private final String agent;

    private OpenCodeExecAgent(Builder b) {
        super(b);
        this.agent = b.agent == null ? "" : b.agent.strip();
    }

    public static Builder builder() { return new Builder(); }

    @Override public String backend() { return "opencode_exec"; }

    @Override protected String prefix() { return "opencode"; }

    /** The argv of both roles: {@code dir} is the workspace (agent) or a temporary folder (chat). */
    static List<String> command(String path, Path dir, String agent, String model) {
        List<String> cmd = new ArrayList<>(List.of(path, "run", "--pure", "--format", "json", "--title", "skillopt", "--dir", dir.toString()));
        if (!agent.isBlank()) cmd.addAll(List.of("--agent", agent));
        if (!model.isBlank()) cmd.addAll(List.of("--model", model));
        return cmd;
    }

    /** Read and search the workspace and run commands; read outside it only when {@code external} (data directories). */
    static Map<String, String> rolloutPermission(boolean external) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("*", "deny");
        for (String tool : List.of("read", "glob", "grep", "list", "bash")) p.put(tool, "allow");
        p.put("external_directory", external ? "allow" : "deny");
        return p;
    }

    /** Scrubbed, upstream's fixed variables, {@code permission} in {@code OPENCODE_PERMISSION} and merged into the caller's
     *  {@code OPENCODE_CONFIG_CONTENT}, and an in-memory session database unless the caller chose one. */
    static Map<String, String> childEnv(Map<String, String> parent, Map<String, String> permission) {
        Map<String, String> e = new LinkedHashMap<>(Proc.scrubbedEnv(parent, CHILD_ENV, FIXED_ENV));
        Map<String, Object> config = new LinkedHashMap<>();
        String given = parent.getOrDefault("OPENCODE_CONFIG_CONTENT", "");
        if (!given.isBlank()) {
            try {
                config.putAll(Json.parseObject(given));
            } catch (IllegalArgumentException bad) {
                throw new ConfigException("OPENCODE_CONFIG_CONTENT must be a JSON object: " + bad.getMessage());
            }
        }
        Json.put(config, "snapshot", false, "share", "disabled", "autoupdate", false, "permission", permission);
        e.put("OPENCODE_PERMISSION", Json.compact(permission));
        e.put("OPENCODE_CONFIG_CONTENT", Json.compact(config));
        if (parent.getOrDefault("OPENCODE_DB", "").isBlank()) e.put("OPENCODE_DB", ":memory:");
        return e;
    }

    /** The typed failure an OpenCode run reported, or null. */
    static BackendException failure(String backend, ParsedTrace t, Proc.Result r) {
        String name = t.meta().getOrDefault("error_name", "");
        return AbstractExecAgent.cliFailure(backend, "OpenCode CLI", "model provider's", t, r, name.equals("ProviderAuthError")
                ? AgentErrors.of(backend, backend + ": OpenCode could not authenticate with the provider: " + t.error(), false)
                : name.isEmpty() ? null : AgentErrors.failed(backend, "OpenCode CLI (" + name + ")", r.exitCode(), t.error()));
    }

    @Override protected Attempt attempt(ExecTask task, Path ws, String prompt, int no, Duration timeout) throws IOException {
        task.dataDirs().forEach(AbstractExecAgent::validated);
        Map<String, String> childEnv = childEnv(env, rolloutPermission(!task.dataDirs().isEmpty()));
        Proc.Result r = Proc.run(command(path, ws, agent, model), ws, childEnv, execPrompt(prompt, false), timeout);
        ParsedTrace t = OpenCodeStream.parse(r.stdout());
        return judged(r, t, () -> AgentErrors.timeout(backend(), "OpenCode CLI", timeout), () -> failure(backend(), t, r), t.finalText(),
                "OpenCode returned no text");
    }

    @Override protected String summary(String raw, ParsedTrace t, String text) {
        long calls = t.steps().stream().filter(s -> s.kind() == TraceStep.Kind.TOOL_CALL).count();
        String cost = t.meta().containsKey("total_cost_usd") ? t.meta().get("total_cost_usd") : "not reported (price table)";
        return "OpenCode Trace Summary\n- final answer format: " + answerFormat(text) + "\n- final response chars: " + text.length()
                + "\n- tool calls: " + calls + "\n- errors: " + (t.isError() ? t.error() : "none")
                + "\n- tokens: " + t.usage().totalTokens() + "\n- cost usd: " + cost + "\n";
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractExecAgent.Builder<Builder> {
        private String agent = "";

        Builder() { super("", ModelKey.OPENCODE_EXEC_PATH.text()); }

        /** Blank: OpenCode's default. */
        public Builder agent(String a) { this.agent = a; return this; }

        public OpenCodeExecAgent build() { return new OpenCodeExecAgent(this); }
    }
}
