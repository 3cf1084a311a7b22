package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ModelSettings;
import io.skillopt4j.config.Setting;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static io.skillopt4j.config.ModelKey.*;

/**
 * Thread-safe (stateless). Reads each backend's settings into its builder through {@link ModelSettings}, from the rows
 * of the flag table ({@link io.skillopt4j.config.ModelKey}).
 */
final class BackendSettings {
    private BackendSettings() {}

    static OpenAiCompatibleChatModel.Builder openAiCompatible(OpenAiCompatibleChatModel.Builder b, ModelSettings s) {
        // no default base URL (SkillOpt's is api.openai.com): a config that names no server must never reach a real provider
        String url = s.string(OPENAI_COMPATIBLE_BASE_URL);
        if (url == null || url.isBlank()) throw new ConfigException("model.openai_compatible_base_url is not set: the " + s.role()
                + " backend openai_compatible needs its server's base URL (e.g. http://localhost:8000/v1); set model.openai_compatible_base_url"
                + " (or model." + s.cfgPrefix() + "openai_compatible_base_url), or OPENAI_COMPATIBLE_BASE_URL (or " + s.envPrefix()
                + "OPENAI_COMPATIBLE_BASE_URL)");
        return b.baseUrl(url)
                .apiKey(s.secret(OPENAI_COMPATIBLE_API_KEY))
                .temperature(temperature(s, OPENAI_COMPATIBLE_TEMPERATURE))
                .maxTokens(s.integer(OPENAI_COMPATIBLE_MAX_TOKENS))
                .timeout(s.seconds(OPENAI_COMPATIBLE_TIMEOUT_SECONDS))
                .imageDetail(imageDetail(s));
    }

    private static String imageDetail(ModelSettings s) { return Setting.string("image_detail").in(s.cfg()).filter(v -> !v.isBlank()).map(String::trim).orElse(null); }

    /** Azure/OpenAI: role value from {@code <ROLE>_AZURE_OPENAI_X}, {@code AZURE_OPENAI_<ROLE>_X}, then shared. */
    static OpenAiChatModel.Builder openAi(OpenAiChatModel.Builder b, ModelSettings s) {
        return b.endpoint(s.string(AZURE_OPENAI_ENDPOINT))
                .apiVersion(s.string(AZURE_OPENAI_API_VERSION))
                .apiKey(s.secret(AZURE_OPENAI_API_KEY))
                .authMode(s.string(AZURE_OPENAI_AUTH_MODE))
                .adScope(s.string(AZURE_OPENAI_AD_SCOPE))
                .managedIdentityClientId(s.string(AZURE_OPENAI_MANAGED_IDENTITY_CLIENT_ID))
                .azPath(s.string(AZ_PATH))
                .env(s.env())
                .imageDetail(imageDetail(s));
    }

    /** thinking_mode, else the legacy enable flag. */
    static QwenChatModel.ThinkingMode qwenThinking(ModelSettings s) {
        String mode = s.string(QWEN_CHAT_THINKING_MODE);
        if (mode != null) return QwenChatModel.ThinkingMode.parse("qwen_chat_thinking_mode", mode);
        // legacy flag: true = enabled, false = server_default (omitted, not sent as false)
        String legacy = s.string(QWEN_CHAT_ENABLE_THINKING);
        return legacy != null && ModelSettings.parseBool("qwen_chat_enable_thinking", legacy) ? QwenChatModel.ThinkingMode.ENABLED
                : QwenChatModel.ThinkingMode.SERVER_DEFAULT;
    }

    static QwenChatModel.Builder qwen(QwenChatModel.Builder b, ModelSettings s) {
        QwenChatModel.ThinkingMode m = qwenThinking(s);
        return b.baseUrl(s.string(QWEN_CHAT_BASE_URL))
                .apiKey(s.secret(QWEN_CHAT_API_KEY))
                .temperature(temperature(s, QWEN_CHAT_TEMPERATURE))
                .maxTokens(s.integer(QWEN_CHAT_MAX_TOKENS))
                .timeout(s.seconds(QWEN_CHAT_TIMEOUT_SECONDS))
                .useMaxCompletionTokens(s.bool(QWEN_CHAT_USE_MAX_COMPLETION_TOKENS))
                .thinking(m)
                .imageDetail(imageDetail(s));
    }

    static MiniMaxChatModel.Builder miniMax(MiniMaxChatModel.Builder b, ModelSettings s) {
        return b.region(s.string(MINIMAX_REGION))
                .baseUrl(s.string(MINIMAX_BASE_URL))
                .apiKey(s.secret(MINIMAX_API_KEY))
                .temperature(temperature(s, MINIMAX_TEMPERATURE))
                .maxTokens(s.integer(MINIMAX_MAX_TOKENS))
                .timeout(s.seconds(MINIMAX_TIMEOUT_SECONDS))
                .enableThinking(s.bool(MINIMAX_ENABLE_THINKING));
    }

    static ClaudeCliChatModel.Builder claudeCli(ClaudeCliChatModel.Builder b, ModelSettings s) {
        // upstream reads os.environ.get("CLAUDE_SETTING_SOURCES", default): a set but blank variable means none
        String sources = s.configured(CLAUDE_SETTING_SOURCES).or(() -> s.envPresent(CLAUDE_SETTING_SOURCES)).orElseGet(() -> s.string(CLAUDE_SETTING_SOURCES));
        return b.binary(s.string(CLAUDE_CLI_BIN))
                .permissionMode(s.string(CLAUDE_PERMISSION_MODE))
                .settingSources(sources)
                .allowAttachmentRead(!Set.of("0", "false", "no").contains(s.string(CLAUDE_ALLOW_ATTACHMENT_READ).trim().toLowerCase(Locale.ROOT)))
                .env(s.env());
    }

    /** {@code claude_code_exec_effort} if given, else its environment, else reasoning_effort, else medium. */
    static String claudeCodeEffort(ModelSettings s) {
        return Setting.string("claude_code_exec_effort").in(s.cfg()).or(() -> s.fromEnv(CLAUDE_CODE_EXEC_EFFORT))
                .orElseGet(() -> Setting.string("reasoning_effort").in(s.cfg()).filter(r -> !r.isBlank()).map(String::trim)
                        .orElse(s.string(CLAUDE_CODE_EXEC_EFFORT)));
    }

    static ClaudeCodeExecAgent.Builder claudeCodeExec(ClaudeCodeExecAgent.Builder b, ModelSettings s) {
        return b.path(s.string(CLAUDE_CODE_EXEC_PATH))
                .profile(s.string(CLAUDE_CODE_EXEC_PROFILE))
                .effort(claudeCodeEffort(s))
                .maxThinkingTokens(s.integer(CLAUDE_CODE_EXEC_MAX_THINKING_TOKENS))
                .permissionMode(s.string(CLAUDE_CODE_EXEC_PERMISSION_MODE))
                .emptyResponseRetries(s.integer(EXEC_EMPTY_RESPONSE_RETRIES));
    }

    static CursorExecAgent.Builder cursorExec(CursorExecAgent.Builder b, ModelSettings s) {
        return b.path(s.string(CURSOR_EXEC_PATH))
                .sandbox(s.string(CURSOR_EXEC_SANDBOX))
                .emptyResponseRetries(s.integer(EXEC_EMPTY_RESPONSE_RETRIES));
    }

    static CopilotExecAgent.Builder copilotExec(CopilotExecAgent.Builder b, ModelSettings s) {
        return b.path(s.string(COPILOT_EXEC_PATH))
                .home(s.string(COPILOT_EXEC_HOME))
                .allowAllTools(Set.of("1", "true", "yes", "on").contains(s.string(COPILOT_EXEC_ALLOW_ALL_TOOLS).trim().toLowerCase(Locale.ROOT)))
                .emptyResponseRetries(s.integer(EXEC_EMPTY_RESPONSE_RETRIES));
    }

    /** A temperature: absent → the table's default; present but "", none, off or null → omitted (null). */
    static Double temperature(ModelSettings s, io.skillopt4j.config.ModelKey k) {
        Optional<String> given = s.present(k);
        if (given.isEmpty()) return k.env().fallback() instanceof Number n ? n.doubleValue() : null;
        String v = given.get();
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.isEmpty() || t.equals("none") || t.equals("off") || t.equals("null")) return null;
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", k.key(), v, "a number, or blank to omit");
        }
    }
}
