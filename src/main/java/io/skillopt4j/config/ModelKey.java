package io.skillopt4j.config;

import java.util.List;
import java.util.Locale;

/**
 * Immutable. The backend settings, one constant per flag-table row, named as its flat key in upper case. Backends read
 * them through {@link ModelSettings}: none spells a key, an environment name or a default of its own.
 */
public enum ModelKey {
    // the role's model names (config only; Backends adds the backend's own environment name and default model)
    OPTIMIZER_MODEL, TARGET_MODEL,
    OPENAI_COMPATIBLE_BASE_URL, OPENAI_COMPATIBLE_API_KEY, OPENAI_COMPATIBLE_TEMPERATURE, OPENAI_COMPATIBLE_MAX_TOKENS,
    OPENAI_COMPATIBLE_TIMEOUT_SECONDS,
    AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_VERSION, AZURE_OPENAI_API_KEY, AZURE_OPENAI_AUTH_MODE, AZURE_OPENAI_AD_SCOPE,
    AZURE_OPENAI_MANAGED_IDENTITY_CLIENT_ID, AZ_PATH,
    QWEN_CHAT_BASE_URL, QWEN_CHAT_API_KEY, QWEN_CHAT_TEMPERATURE, QWEN_CHAT_MAX_TOKENS, QWEN_CHAT_TIMEOUT_SECONDS,
    QWEN_CHAT_ENABLE_THINKING, QWEN_CHAT_THINKING_MODE, QWEN_CHAT_USE_MAX_COMPLETION_TOKENS,
    MINIMAX_REGION, MINIMAX_BASE_URL, MINIMAX_API_KEY, MINIMAX_TEMPERATURE, MINIMAX_MAX_TOKENS, MINIMAX_TIMEOUT_SECONDS,
    MINIMAX_ENABLE_THINKING,
    CLAUDE_CHAT_TRANSPORT, CLAUDE_CLI_BIN, CLAUDE_PERMISSION_MODE, CLAUDE_SETTING_SOURCES, CLAUDE_ALLOW_ATTACHMENT_READ,
    CLAUDE_CHAT_TIMEOUT, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL,
    CLAUDE_CODE_EXEC_PATH, CLAUDE_CODE_EXEC_PROFILE, CLAUDE_CODE_EXEC_EFFORT, CLAUDE_CODE_EXEC_MAX_THINKING_TOKENS, CLAUDE_CODE_EXEC_PERMISSION_MODE,
    COPILOT_EXEC_PATH, COPILOT_EXEC_HOME, COPILOT_EXEC_ALLOW_ALL_TOOLS, COPILOT_CHAT_TIMEOUT, COPILOT_CHAT_OPTIMIZER_MODEL,
    COPILOT_CHAT_TARGET_MODEL,
    CURSOR_EXEC_PATH, CURSOR_EXEC_SANDBOX,
    CODEX_EXEC_PATH, CODEX_EXEC_SANDBOX, CODEX_EXEC_PROFILE, CODEX_EXEC_REASONING_EFFORT, CODEX_EXEC_NETWORK_ACCESS,
    CODEX_EXEC_WEB_SEARCH, CODEX_EXEC_APPROVAL_POLICY, CODEX_WORKING_DIRECTORY, CODEX_CHAT_TIMEOUT,
    OPENCODE_EXEC_PATH, OPENCODE_EXEC_AGENT, OPENCODE_CHAT_TIMEOUT,
    // every agent CLI
    EXEC_EMPTY_RESPONSE_RETRIES, EXEC_TIMEOUT;

    private final FlagSpec row;
    private final FlagSpec.Env env;
    private final boolean perRole;

    ModelKey() {
        String key = name().toLowerCase(Locale.ROOT);
        this.row = Flags.byKey(key).orElseThrow(() -> new IllegalStateException("no flag-table row for " + key));
        this.env = row.env() != null ? row.env() : new FlagSpec.Env(List.of(), List.of(), row.defaultValue(), false);
        this.perRole = Flags.byKey("optimizer_" + key).isPresent() && Flags.byKey("target_" + key).isPresent();
    }

    public String key() { return row.key(); }

    public FlagSpec row() { return row; }

    /** The environment names, the config aliases and the value used when neither config nor environment sets it. */
    public FlagSpec.Env env() { return env; }

    /** The default applied after config and environment, as text (null: none): a builder's default for direct use. */
    public String text() { return env.fallback() == null ? null : Coercion.pyStr(env.fallback()); }

    public int intValue() { return ((Number) env.fallback()).intValue(); }

    public java.time.Duration seconds() { return java.time.Duration.ofMillis((long) (((Number) env.fallback()).doubleValue() * 1000)); }

    /** True when the roles may set it apart ({@code optimizer_<key>}, {@code target_<key>}). */
    public boolean perRole() { return perRole; }
}
