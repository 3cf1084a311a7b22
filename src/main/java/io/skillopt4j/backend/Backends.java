package io.skillopt4j.backend;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ModelKey;
import io.skillopt4j.config.ModelSettings;
import io.skillopt4j.config.BackendNames;
import io.skillopt4j.config.FlatConfig;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Thread-safe (stateless). Builds backends from a resolved flat config (keys in docs/backends.md) and the environment.
 * <pre>{@code
 * ModelRoles roles = Backends.roles(cfg);
 * String reply = roles.optimizer().chat("Say hi");
 * }</pre>
 */
public final class Backends {
    /** Backends usable as the optimizer (upstream's list plus claude_code_exec, which the seed makes a full backend). */
    public static final List<String> OPTIMIZER = List.of("openai_chat", "claude_chat", "qwen_chat", "minimax_chat",
            "openai_compatible", "copilot_chat", "codex_exec", "claude_code_exec", "opencode_exec");
    public static final List<String> TARGET = List.of("openai_chat", "claude_chat", "qwen_chat", "minimax_chat",
            "openai_compatible", "copilot_chat", "codex_exec", "claude_code_exec", "cursor_exec", "copilot_exec", "opencode_exec");
    public static final List<String> EXEC = List.of("codex_exec", "claude_code_exec", "cursor_exec", "copilot_exec", "opencode_exec");
    /** Backends whose CLI reports no token usage nor cost: a budget cannot bound them. */
    static final List<String> UNMETERED = List.of("copilot_chat", "copilot_exec");

    private Backends() {}

    public static ModelRoles roles(FlatConfig cfg) { return roles(cfg, System.getenv()); }

    public static ModelRoles roles(FlatConfig cfg, Map<String, String> env) {
        UsageMeter meter = new UsageMeter();
        String opt = name(cfg, "optimizer_backend");
        String tgt = name(cfg, "target_backend");
        check("optimizer_backend", opt, OPTIMIZER);
        check("target_backend", tgt, TARGET);
        CostLedger ledger = CostLedger.from(cfg);
        if (ledger.cap() != null) {
            for (String b : List.of(opt, tgt)) {
                if (UNMETERED.contains(b)) throw ConfigException.badValue("", "budget_usd", ledger.cap(), "unset with " + b
                        + " (the Copilot CLI reports no token usage or cost, so a budget cannot bound it)");
            }
        }
        ChatModel optimizer = new BudgetedChatModel(chat(opt, cfg, "optimizer", env, meter), "optimizer", ledger);
        ChatModel target = new BudgetedChatModel(chat(tgt, cfg, "target", env, meter), "target", ledger);
        if (ledger.cap() != null) requirePrices(ledger, optimizer, target);
        Optional<ExecAgent> agent = EXEC.contains(tgt) ? Optional.of(new BudgetedExecAgent(exec(tgt, cfg, env, meter), ledger)) : Optional.empty();
        return new ModelRoles(optimizer, target, agent, meter, ledger);
    }

    /** A cap needs a price for every model that may be called: say so before the first call, not at it. */
    private static void requirePrices(CostLedger ledger, ChatModel... models) {
        for (ChatModel m : models) {
            if (ledger.prices().find(m.model()) == null) {
                String role = m == models[0] ? "optimizer" : "target";
                throw ConfigException.badValue("", "budget_usd", ledger.cap(), "prices for every model; " + role + " model '" + m.model()
                        + "' has none: add it to model.price_table (USD per 1M tokens: {prompt, completion, cached})");
            }
        }
    }

    /** Upstream's {@code resolved_qwen_thinking_modes} for config.json: present when a role's backend is qwen_chat; a role
     *  that is not a Qwen model gets its mode from config and environment, as upstream resolves it. */
    public static Optional<Map<String, String>> qwenThinkingModes(FlatConfig cfg, ModelRoles roles, Map<String, String> env) {
        boolean qwen = normalize(name(cfg, "optimizer_backend")).equals("qwen_chat") || normalize(name(cfg, "target_backend")).equals("qwen_chat")
                || roles.optimizer() instanceof QwenChatModel || roles.target() instanceof QwenChatModel;
        if (!qwen) return Optional.empty();
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("optimizer", roles.optimizer() instanceof QwenChatModel q ? q.thinkingMode().wire()
                : BackendSettings.qwenThinking(new ModelSettings(cfg, env, "optimizer")).wire());
        m.put("target", roles.target() instanceof QwenChatModel q ? q.thinkingMode().wire()
                : BackendSettings.qwenThinking(new ModelSettings(cfg, env, "target")).wire());
        return Optional.of(m);
    }

    /** One chat model for {@code role} (optimizer, target, judge) with a fresh meter. */
    public static ChatModel chat(String backend, FlatConfig cfg, String role) {
        return chat(backend, cfg, role, System.getenv(), new UsageMeter());
    }

    public static ChatModel chat(String backend, FlatConfig cfg, String role, Map<String, String> env, UsageMeter meter) {
        String b = normalize(backend);
        ModelSettings s = new ModelSettings(cfg, env, role);
        return switch (b) {
            case "openai_compatible" -> BackendSettings.openAiCompatible(common(OpenAiCompatibleChatModel.builder(), s, meter), s)
                    .promptCache(promptCache(cfg)).model(s.model(b)).build();
            case "openai_chat" -> BackendSettings.openAi(common(OpenAiChatModel.builder(), s, meter), s)
                    .promptCache(promptCache(cfg)).model(s.model(b)).build();
            case "qwen_chat" -> BackendSettings.qwen(common(QwenChatModel.builder(), s, meter), s)
                    .model(s.model(b)).build();
            case "minimax_chat" -> BackendSettings.miniMax(common(MiniMaxChatModel.builder(), s, meter), s)
                    .model(s.model(b)).build();
            case "claude_chat" -> {
                String transport = s.string(ModelKey.CLAUDE_CHAT_TRANSPORT).toLowerCase(java.util.Locale.ROOT);
                if (transport.equals("api")) {
                    yield common(AnthropicChatModel.builder(), s, meter)
                            .apiKey(s.secret(ModelKey.ANTHROPIC_API_KEY))
                            .baseUrl(s.string(ModelKey.ANTHROPIC_BASE_URL))
                            .promptCache(promptCache(cfg)).model(s.model(b)).build();
                }
                if (!transport.equals("cli")) throw ConfigException.badValue("", "claude_chat_transport", transport, "cli or api");
                yield BackendSettings.claudeCli(common(ClaudeCliChatModel.builder(), s, meter), s)
                        .timeout(s.seconds(ModelKey.CLAUDE_CHAT_TIMEOUT)).model(s.model(b)).build();
            }
            case "claude_code_exec" -> BackendSettings.claudeCli(common(ClaudeCliChatModel.builder(), s, meter), s)
                    .backendName("claude_code_exec")
                    .binary(s.string(ModelKey.CLAUDE_CODE_EXEC_PATH))
                    .maxThinkingTokens(s.integer(ModelKey.CLAUDE_CODE_EXEC_MAX_THINKING_TOKENS))
                    .reasoningEffort(BackendSettings.claudeCodeEffort(s))
                    .model(s.model(b)).build();
            case "copilot_chat" -> common(CopilotChatModel.builder(), s, meter)
                    .binary(s.string(ModelKey.COPILOT_EXEC_PATH))
                    .home(s.string(ModelKey.COPILOT_EXEC_HOME))
                    .timeout(s.seconds(ModelKey.COPILOT_CHAT_TIMEOUT))
                    .env(env)
                    .model(s.string(s.pick(ModelKey.COPILOT_CHAT_OPTIMIZER_MODEL, ModelKey.COPILOT_CHAT_TARGET_MODEL)))
                    .build();
            case "codex_exec" -> common(CodexChatModel.builder(), s, meter).settings(CodexSettings.from(s)).env(env)
                    .timeout(s.seconds(ModelKey.CODEX_CHAT_TIMEOUT)).model(s.model(b)).build();
            case "opencode_exec" -> common(OpenCodeChatModel.builder(), s, meter).binary(s.string(ModelKey.OPENCODE_EXEC_PATH))
                    .agent(s.string(ModelKey.OPENCODE_EXEC_AGENT)).env(env).timeout(s.seconds(ModelKey.OPENCODE_CHAT_TIMEOUT))
                    .model(openCodeModel(s)).build();
            case "cursor_exec", "copilot_exec" -> {
                if (!s.role().equals("target")) throw ConfigException.badValue("", role + "_backend", backend, "one of " + String.join(", ", OPTIMIZER));
                yield ExecAgentChatModel.builder(exec(b, cfg, env, new UsageMeter())).role(s.role()).meter(meter).backoff(Backoff.NONE).build();
            }
            default -> throw ConfigException.badValue("", role + "_backend", backend, "one of " + String.join(", ",
                    role.equals("optimizer") ? OPTIMIZER : TARGET));
        };
    }

    private static String promptCache(FlatConfig cfg) { return Setting.string("prompt_cache").of(cfg); }

    /** The exec agent for {@code backend} (a member of {@link #EXEC}), reading target settings. */
    public static ExecAgent exec(String backend, FlatConfig cfg, Map<String, String> env, UsageMeter meter) {
        String b = normalize(backend);
        ModelSettings s = new ModelSettings(cfg, env, "target");
        Duration timeout = s.seconds(ModelKey.EXEC_TIMEOUT);
        String model = s.model(b);
        AbstractExecAgent.Builder<?> builder = switch (b) {
            case "codex_exec" -> CodexExecAgent.builder().model(model).settings(CodexSettings.from(s));
            case "claude_code_exec" -> BackendSettings.claudeCodeExec(ClaudeCodeExecAgent.builder(), s).model(model);
            case "cursor_exec" -> BackendSettings.cursorExec(CursorExecAgent.builder(), s).model(model);
            case "copilot_exec" -> BackendSettings.copilotExec(CopilotExecAgent.builder(), s)
                    .model(s.configured(ModelKey.TARGET_MODEL).isEmpty() ? "" : model);
            case "opencode_exec" -> OpenCodeExecAgent.builder().path(s.string(ModelKey.OPENCODE_EXEC_PATH))
                    .agent(s.string(ModelKey.OPENCODE_EXEC_AGENT)).model(openCodeModel(s));
            default -> throw ConfigException.badValue("", "target_backend", backend, "one of " + String.join(", ", EXEC));
        };
        return builder.env(env).meter(meter).timeout(timeout).build();
    }

    /** The role's OpenCode model: blank (OpenCode's default) when unset or a GPT placeholder, else provider/model. */
    static String openCodeModel(ModelSettings s) {
        ModelKey key = s.pick(ModelKey.OPTIMIZER_MODEL, ModelKey.TARGET_MODEL);
        String m = s.configured(key).map(String::strip).orElse("");
        if (m.isEmpty() || BackendNames.isSentinel(m)) return "";
        if (!m.contains("/")) throw ConfigException.badValue("", s.firstKey(key), m, "provider/model for opencode_exec (e.g. anthropic/claude-sonnet-4-5)");
        return m;
    }

    /** Upstream's default model for a backend (gpt-4o when unknown, as upstream falls back). */
    public static String defaultModel(String backend) { return BackendNames.defaultModel(backend); }

    /** The canonical role backend: the run labels azure_openai and codex become openai_chat and codex_exec. */
    static String normalize(String name) {
        if (name == null || name.isBlank()) return "";
        String n = BackendNames.normalize(name);
        return switch (n) {
            case BackendNames.AZURE_OPENAI -> BackendNames.OPENAI_CHAT;
            case BackendNames.CODEX -> BackendNames.CODEX_EXEC;
            default -> n;
        };
    }

    private static String name(FlatConfig cfg, String key) {
        String v = normalize(Setting.string(key).in(cfg).orElse(""));
        return v.isEmpty() ? "openai_chat" : v;
    }

    private static void check(String key, String value, List<String> allowed) {
        if (!allowed.contains(value)) throw ConfigException.badValue("", key, value, "one of " + String.join(", ", allowed));
    }

    private static <B extends AbstractChatModel.Builder<B>> B common(B b, ModelSettings s, UsageMeter meter) {
        FlatConfig cfg = s.cfg();
        String effort = Setting.string("reasoning_effort").of(cfg);
        long base = Setting.longValue("retry_backoff_base_ms").of(cfg);
        long cap = Setting.longValue("retry_backoff_cap_ms").of(cfg);
        int attempts = Setting.integer("http_attempts").of(cfg);
        if (attempts < 1) throw ConfigException.badValue("", "http_attempts", attempts, "an integer >= 1");
        double rpm = Setting.decimal("rate_limit_rpm").of(cfg), tpm = Setting.decimal("rate_limit_tpm").of(cfg);
        if (!(rpm >= 0)) throw ConfigException.badValue("", "rate_limit_rpm", rpm, "a number >= 0 (0 = no configured limit)");
        if (!(tpm >= 0)) throw ConfigException.badValue("", "rate_limit_tpm", tpm, "a number >= 0 (0 = no configured limit)");
        double hq = Setting.decimal("hedge_quantile").of(cfg), hx = Setting.decimal("hedge_max_extra").of(cfg);
        if (!(hq >= 0 && hq < 1)) throw ConfigException.badValue("", "hedge_quantile", hq, "a number in [0, 1) (0 = off, e.g. 0.9)");
        if (!(hx >= 0 && hx <= 1)) throw ConfigException.badValue("", "hedge_max_extra", hx, "a number in [0, 1]");
        // Upstream bounds optimizer calls by its analyst/merge thread pools (analyst_workers); max_api_workers is
        // ALFWorld's cap on concurrent target calls; other targets run at most `workers` rollout threads.
        int pool = Setting.integer(s.role().equals("optimizer") ? "analyst_workers"
                : Setting.string("env").of(cfg).equals("alfworld") ? "max_api_workers" : "workers").of(cfg);
        return b.role(s.role()).meter(meter).reasoningEffort(effort.isBlank() ? null : effort)
                .backoff(Backoff.ofMillis(base, cap)).httpAttempts(attempts)
                .rateLimit(rpm, tpm).hedge(hq, hx)
                .cache(ResponseCache.from(cfg, null)).maxConcurrency(Math.max(1, pool));
    }
}
