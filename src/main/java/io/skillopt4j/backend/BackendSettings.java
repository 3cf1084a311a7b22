package io.skillopt4j.backend;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.Settings;

import java.util.Locale;
import java.util.Optional;

/**
 * Thread-safe (stateless). Reads each backend's config keys and environment variables (upstream's exact
 * names, role forms first) into its builder; {@link Backends} calls these. Precedence: config, then
 * environment, then default; secrets: environment first.
 */
final class BackendSettings {
    private BackendSettings() {}

    private static String[] keys(Settings s, String suffix) { return new String[] {s.cfgPrefix() + suffix, suffix}; }

    private static String[] envs(Settings s, String suffix) { return new String[] {s.envPrefix() + suffix, suffix}; }

    static OpenAiCompatibleChatModel.Builder openAiCompatible(OpenAiCompatibleChatModel.Builder b, Settings s) {
        return b.baseUrl(requiredBaseUrl(s))
                .apiKey(s.secret(envs(s, "OPENAI_COMPATIBLE_API_KEY"), keys(s, "openai_compatible_api_key")))
                .temperature(temperature(s, keys(s, "openai_compatible_temperature"), envs(s, "OPENAI_COMPATIBLE_TEMPERATURE"), null))
                .maxTokens(s.integer(keys(s, "openai_compatible_max_tokens"), envs(s, "OPENAI_COMPATIBLE_MAX_TOKENS"), 8000))
                .timeout(s.seconds(keys(s, "openai_compatible_timeout_seconds"), envs(s, "OPENAI_COMPATIBLE_TIMEOUT_SECONDS"), 300))
                .imageDetail(s.cfgValue("image_detail"));
    }

    /**
     * The openai_compatible base URL from config or environment. There is no default: a config that names no
     * server must never reach a real provider (SkillOpt falls back to api.openai.com; docs/backends.md).
     */
    static String requiredBaseUrl(Settings s) {
        String url = s.str(keys(s, "openai_compatible_base_url"), envs(s, "OPENAI_COMPATIBLE_BASE_URL"), null);
        if (url != null) return url;
        throw new ConfigException("model.openai_compatible_base_url is not set: the " + s.role() + " backend openai_compatible needs its server's "
                + "base URL (e.g. http://localhost:8000/v1); set model.openai_compatible_base_url (or model." + s.cfgPrefix()
                + "openai_compatible_base_url), or OPENAI_COMPATIBLE_BASE_URL (or " + s.envPrefix() + "OPENAI_COMPATIBLE_BASE_URL)");
    }

    /** Azure/OpenAI: role value from {@code <ROLE>_AZURE_OPENAI_X}, {@code AZURE_OPENAI_<ROLE>_X}, then shared. */
    static OpenAiChatModel.Builder openAi(OpenAiChatModel.Builder b, Settings s) {
        String R = s.role().toUpperCase(Locale.ROOT);
        java.util.function.Function<String, String[]> env = x -> new String[] {R + "_AZURE_OPENAI_" + x, "AZURE_OPENAI_" + R + "_" + x, "AZURE_OPENAI_" + x};
        java.util.function.Function<String, String[]> cfg = x -> keys(s, "azure_openai_" + x);
        return b.endpoint(s.str(cfg.apply("endpoint"), env.apply("ENDPOINT"), ""))
                .apiVersion(s.str(cfg.apply("api_version"), env.apply("API_VERSION"), null))
                .apiKey(s.secret(env.apply("API_KEY"), cfg.apply("api_key")))
                .authMode(s.str(cfg.apply("auth_mode"), env.apply("AUTH_MODE"), "azure_cli"))
                .adScope(s.str(cfg.apply("ad_scope"), env.apply("AD_SCOPE"), null))
                .managedIdentityClientId(s.str(cfg.apply("managed_identity_client_id"), env.apply("MANAGED_IDENTITY_CLIENT_ID"), null))
                .azPath(s.str(new String[] {"az_path"}, new String[] {"AZ_PATH"}, "az"))
                .env(s.env())
                .imageDetail(s.cfgValue("image_detail"));
    }

    /** A role's Qwen thinking mode: thinking_mode, else the legacy enable flag (true = enabled, false = server default). */
    static QwenChatModel.ThinkingMode qwenThinking(Settings s) {
        String mode = s.str(keys(s, "qwen_chat_thinking_mode"), envs(s, "QWEN_CHAT_THINKING_MODE"), null);
        if (mode != null) return QwenChatModel.ThinkingMode.parse("qwen_chat_thinking_mode", mode);
        // legacy flag: true = enabled, false = server_default (omitted, not sent as false)
        String legacy = s.str(keys(s, "qwen_chat_enable_thinking"), envs(s, "QWEN_CHAT_ENABLE_THINKING"), null);
        return legacy != null && Settings.parseBool("qwen_chat_enable_thinking", legacy) ? QwenChatModel.ThinkingMode.ENABLED
                : QwenChatModel.ThinkingMode.SERVER_DEFAULT;
    }

    static QwenChatModel.Builder qwen(QwenChatModel.Builder b, Settings s) {
        QwenChatModel.ThinkingMode m = qwenThinking(s);
        return b.baseUrl(s.str(keys(s, "qwen_chat_base_url"), envs(s, "QWEN_CHAT_BASE_URL"), null))
                .apiKey(s.secret(envs(s, "QWEN_CHAT_API_KEY"), keys(s, "qwen_chat_api_key")))
                .temperature(temperature(s, keys(s, "qwen_chat_temperature"), envs(s, "QWEN_CHAT_TEMPERATURE"), 0.7))
                .maxTokens(s.integer(keys(s, "qwen_chat_max_tokens"), envs(s, "QWEN_CHAT_MAX_TOKENS"), 8000))
                .timeout(s.seconds(keys(s, "qwen_chat_timeout_seconds"), envs(s, "QWEN_CHAT_TIMEOUT_SECONDS"), 300))
                .useMaxCompletionTokens(s.bool(keys(s, "qwen_chat_use_max_completion_tokens"), envs(s, "QWEN_CHAT_USE_MAX_COMPLETION_TOKENS"), false))
                .thinking(m)
                .imageDetail(s.cfgValue("image_detail"));
    }

    static MiniMaxChatModel.Builder miniMax(MiniMaxChatModel.Builder b, Settings s) {
        String[] none = {};
        return b.region(s.str(new String[] {"minimax_region"}, new String[] {"MINIMAX_REGION"}, ""))
                .baseUrl(s.str(new String[] {"minimax_base_url"}, new String[] {"MINIMAX_BASE_URL"}, null))
                .apiKey(s.secret(new String[] {"MINIMAX_API_KEY"}, new String[] {"minimax_api_key"}))
                .temperature(temperature(s, new String[] {"minimax_temperature"}, new String[] {"MINIMAX_TEMPERATURE"}, 0.7))
                .maxTokens(s.integer(new String[] {"minimax_max_tokens"}, new String[] {"MINIMAX_MAX_TOKENS"}, 8000))
                .timeout(s.seconds(new String[] {"minimax_timeout_seconds"}, new String[] {"MINIMAX_TIMEOUT_SECONDS"}, 300))
                .enableThinking(s.bool(new String[] {"minimax_enable_thinking"}, new String[] {"MINIMAX_ENABLE_THINKING"}, false));
    }

    static ClaudeCliChatModel.Builder claudeCli(ClaudeCliChatModel.Builder b, Settings s) {
        String sources = s.env().containsKey("CLAUDE_SETTING_SOURCES") && s.cfgValue("claude_setting_sources") == null
                ? s.env().get("CLAUDE_SETTING_SOURCES") : s.str(new String[] {"claude_setting_sources"}, new String[] {}, "user,project");
        String attach = s.str(new String[] {"claude_allow_attachment_read"}, new String[] {"CLAUDE_ALLOW_ATTACHMENT_READ"}, "1");
        return b.binary(s.str(new String[] {"claude_cli_bin"}, new String[] {"CLAUDE_CLI_BIN"}, "claude"))
                .permissionMode(s.str(new String[] {"claude_permission_mode"}, new String[] {"CLAUDE_PERMISSION_MODE"}, "dontAsk"))
                .settingSources(sources)
                .allowAttachmentRead(!java.util.Set.of("0", "false", "no").contains(attach.trim().toLowerCase(Locale.ROOT)))
                .env(s.env());
    }

    /** claude_code_exec effort: {@code claude_code_exec_effort} if given, else reasoning_effort, else medium. */
    static String claudeCodeEffort(Settings s) {
        Optional<String> set = Setting.string("claude_code_exec_effort").in(s.cfg());
        if (set.isPresent()) return set.get();
        String env = s.envValue("CLAUDE_CODE_EXEC_EFFORT");
        if (env != null) return env;
        String r = s.cfgValue("reasoning_effort");
        return r == null ? "medium" : r;
    }

    static ClaudeCodeExecAgent.Builder claudeCodeExec(ClaudeCodeExecAgent.Builder b, Settings s) {
        return b.path(claudeCodeExecPath(s))
                .profile(s.str(new String[] {"claude_code_exec_profile"}, new String[] {"CLAUDE_CODE_EXEC_PROFILE"}, ""))
                .effort(claudeCodeEffort(s))
                .maxThinkingTokens(claudeCodeMaxThinkingTokens(s))
                .emptyResponseRetries(emptyResponseRetries(s));
    }

    // one reader per setting the chat-model and exec-agent forms of a CLI share (Backends reads them for both)
    static int emptyResponseRetries(Settings s) {
        return s.integer(new String[] {"exec_empty_response_retries"}, new String[] {"EXEC_EMPTY_RESPONSE_RETRIES"}, 1);
    }

    static String claudeCodeExecPath(Settings s) {
        return s.str(new String[] {"claude_code_exec_path"}, new String[] {"CLAUDE_CODE_EXEC_PATH"}, Setting.string("claude_code_exec_path").defaultValue());
    }

    static int claudeCodeMaxThinkingTokens(Settings s) {
        return s.integer(new String[] {"claude_code_exec_max_thinking_tokens"}, new String[] {"CLAUDE_CODE_EXEC_MAX_THINKING_TOKENS"},
                Setting.integer("claude_code_exec_max_thinking_tokens").defaultValue());
    }

    static String copilotExecPath(Settings s) { return s.str(new String[] {"copilot_exec_path"}, new String[] {"COPILOT_EXEC_PATH"}, "copilot"); }

    static String copilotExecHome(Settings s) { return s.str(new String[] {"copilot_exec_home"}, new String[] {"COPILOT_EXEC_HOME"}, null); }

    static CursorExecAgent.Builder cursorExec(CursorExecAgent.Builder b, Settings s) {
        return b.path(s.str(new String[] {"cursor_exec_path"}, new String[] {"CURSOR_EXEC_PATH"}, "cursor-agent"))
                .sandbox(s.str(new String[] {"cursor_exec_sandbox"}, new String[] {"CURSOR_EXEC_SANDBOX"}, "enabled"))
                .emptyResponseRetries(emptyResponseRetries(s));
    }

    static CopilotExecAgent.Builder copilotExec(CopilotExecAgent.Builder b, Settings s) {
        String allow = s.str(new String[] {"copilot_exec_allow_all_tools"}, new String[] {"COPILOT_EXEC_ALLOW_ALL_TOOLS"}, "0");
        boolean all = java.util.Set.of("1", "true", "yes", "on").contains(allow.trim().toLowerCase(Locale.ROOT));
        return b.path(copilotExecPath(s))
                .home(copilotExecHome(s))
                .allowAllTools(all)
                .emptyResponseRetries(emptyResponseRetries(s));
    }

    /** A temperature: absent → {@code def}; present but "", none, off or null → omitted (null). */
    static Double temperature(Settings s, String[] cfgKeys, String[] envNames, Double def) {
        String v = null;
        boolean present = false;
        for (String k : cfgKeys) if (s.cfg().has(k) && s.cfg().get(k) != null) { v = s.cfg().string(k, ""); present = true; break; }
        if (!present) for (String n : envNames) if (s.env().containsKey(n)) { v = s.env().get(n); present = true; break; }
        if (!present) return def;
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.isEmpty() || t.equals("none") || t.equals("off") || t.equals("null")) return null;
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", cfgKeys.length > 0 ? cfgKeys[cfgKeys.length - 1] : envNames[0], v, "a number, or blank to omit");
        }
    }
}
