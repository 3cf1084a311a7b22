package io.skillopt4j.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Immutable (static tables). Upstream's backend vocabulary: aliases ({@code normalize_backend_name}), default models,
 * {@code scripts/train.py}'s label → role pairing, role whitelists, GPT placeholders. The backend package uses the
 * same tables, so config resolution and backend construction cannot disagree.
 */
public final class BackendNames {
    /** Label for Azure OpenAI (a run label, not a role backend). */
    public static final String AZURE_OPENAI = "azure_openai";
    public static final String OPENAI_CHAT = "openai_chat";
    public static final String CODEX = "codex";
    public static final String CODEX_EXEC = "codex_exec";
    public static final String CLAUDE_CHAT = "claude_chat";
    public static final String CLAUDE_CODE_EXEC = "claude_code_exec";
    public static final String CURSOR_EXEC = "cursor_exec";
    public static final String COPILOT_CHAT = "copilot_chat";
    public static final String COPILOT_EXEC = "copilot_exec";
    public static final String QWEN_CHAT = "qwen_chat";
    public static final String MINIMAX_CHAT = "minimax_chat";
    public static final String OPENAI_COMPATIBLE = "openai_compatible";
    /** OpenCode as an agent (ours: upstream's research layer has no OpenCode backend). */
    public static final String OPENCODE_EXEC = "opencode_exec";

    /** Alias → canonical name, in upstream's table order. */
    public static final Map<String, String> ALIASES;
    /** Canonical backend → default model (copilot_* fall back to the azure entry, as upstream). */
    public static final Map<String, String> DEFAULT_MODELS;
    /** The environment variable a backend takes its model from when the config names none ({@code <ROLE>_} form first). */
    public static final Map<String, String> MODEL_ENV = Map.of(OPENAI_COMPATIBLE, "OPENAI_COMPATIBLE_MODEL", OPENAI_CHAT, "DEPLOYMENT",
            QWEN_CHAT, "QWEN_CHAT_MODEL", MINIMAX_CHAT, "MINIMAX_MODEL");
    /** Backends allowed for the optimizer role (upstream's whitelist plus the seed fork's claude_code_exec). */
    public static final Set<String> OPTIMIZER_BACKENDS = Set.of(OPENAI_CHAT, CLAUDE_CHAT, QWEN_CHAT, MINIMAX_CHAT,
            OPENAI_COMPATIBLE, COPILOT_CHAT, CODEX_EXEC, CLAUDE_CODE_EXEC, OPENCODE_EXEC);
    public static final Set<String> TARGET_BACKENDS = Set.of(OPENAI_CHAT, CLAUDE_CHAT, QWEN_CHAT, MINIMAX_CHAT,
            OPENAI_COMPATIBLE, COPILOT_CHAT, CODEX_EXEC, CLAUDE_CODE_EXEC, CURSOR_EXEC, COPILOT_EXEC, OPENCODE_EXEC);
    /** Target backends that run an agent in a workspace rather than answer chat messages. */
    public static final Set<String> EXEC_BACKENDS = Set.of(CODEX_EXEC, CLAUDE_CODE_EXEC, CURSOR_EXEC, COPILOT_EXEC, OPENCODE_EXEC);
    /** The placeholder models the shipped configs use; backend rules replace them. */
    public static final Set<String> MODEL_SENTINELS = Set.of("gpt-5.4", "gpt-5.5");

    static {
        Map<String, String> a = new LinkedHashMap<>();
        for (String s : List.of("azure", AZURE_OPENAI, "azure-openai")) a.put(s, AZURE_OPENAI);
        a.put(OPENAI_CHAT, OPENAI_CHAT);
        for (String s : List.of("openai", CODEX)) a.put(s, CODEX);
        a.put(CODEX_EXEC, CODEX_EXEC);
        for (String s : List.of("claude", CLAUDE_CHAT, "anthropic")) a.put(s, CLAUDE_CHAT);
        a.put(CLAUDE_CODE_EXEC, CLAUDE_CODE_EXEC);
        for (String s : List.of("cursor", "cursor_agent", CURSOR_EXEC)) a.put(s, CURSOR_EXEC);
        for (String s : List.of("copilot", "copilot_cli", "github_copilot", COPILOT_CHAT)) a.put(s, COPILOT_CHAT);
        a.put(COPILOT_EXEC, COPILOT_EXEC);
        for (String s : List.of("qwen", QWEN_CHAT)) a.put(s, QWEN_CHAT);
        for (String s : List.of("minimax", MINIMAX_CHAT)) a.put(s, MINIMAX_CHAT);
        for (String s : List.of(OPENAI_COMPATIBLE, "openai_compatible_chat", "openai-compatible", "compat")) {
            a.put(s, OPENAI_COMPATIBLE);
        }
        ALIASES = java.util.Collections.unmodifiableMap(a);
        Map<String, String> m = new LinkedHashMap<>();
        for (String s : List.of(AZURE_OPENAI, OPENAI_CHAT, CODEX, CODEX_EXEC)) m.put(s, "gpt-4o");
        for (String s : List.of("claude", CLAUDE_CHAT, CLAUDE_CODE_EXEC)) m.put(s, "claude-sonnet-4-6");
        m.put(CURSOR_EXEC, "composer-2.5");
        m.put(QWEN_CHAT, "Qwen/Qwen3.5-4B");
        m.put(MINIMAX_CHAT, "MiniMax-M3");
        m.put(OPENAI_COMPATIBLE, "gpt-4o-mini");
        DEFAULT_MODELS = java.util.Collections.unmodifiableMap(m);
    }

    private BackendNames() {}

    /** Returns the canonical name: trimmed, lower-cased, aliases mapped; null/blank → azure_openai; unknown kept. */
    public static String normalize(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return n.isEmpty() ? AZURE_OPENAI : ALIASES.getOrDefault(n, n);
    }

    /** Any case, trimmed. */
    public static boolean isKnown(String name) {
        return name != null && ALIASES.containsKey(name.trim().toLowerCase(Locale.ROOT));
    }

    /** Unknown → the azure default. */
    public static String defaultModel(String backend) {
        return DEFAULT_MODELS.getOrDefault(normalize(backend), DEFAULT_MODELS.get(AZURE_OPENAI));
    }

    /** The (optimizer, target) role backends a run label implies. */
    public record RolePair(String optimizer, String target) {}

    /** As {@code scripts/train.py} pairs roles; {@code evalOnly}: as {@code eval_only.py}, which has no qwen_chat branch. */
    public static RolePair pairing(String label, boolean evalOnly) {
        String b = normalize(label);
        return switch (b) {
            case CLAUDE_CHAT, COPILOT_CHAT, OPENAI_COMPATIBLE -> new RolePair(b, b);
            case CODEX, CODEX_EXEC -> new RolePair(CODEX_EXEC, CODEX_EXEC);
            case CLAUDE_CODE_EXEC, CURSOR_EXEC, COPILOT_EXEC, MINIMAX_CHAT -> new RolePair(OPENAI_CHAT, b);
            case QWEN_CHAT -> evalOnly ? new RolePair(OPENAI_CHAT, OPENAI_CHAT) : new RolePair(OPENAI_CHAT, b);
            default -> new RolePair(OPENAI_CHAT, OPENAI_CHAT);
        };
    }

    /** True for a GPT placeholder model (trimmed string form; null is not). */
    public static boolean isSentinel(Object model) {
        return model != null && MODEL_SENTINELS.contains(Coercion.pyStr(model).trim());
    }

    /** True when a label's pairing may replace a role backend value (null, "" or openai_chat). */
    public static boolean isRoleDefault(Object value) {
        return value == null || "".equals(value) || OPENAI_CHAT.equals(value);
    }
}
