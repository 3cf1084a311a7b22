package io.skillopt4j.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.skillopt4j.config.BackendNames.RolePair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackendNamesTest {
    @Test
    void everyAliasNormalises() {
        Map<String, String> expected = Map.ofEntries(
                Map.entry("azure", "azure_openai"), Map.entry("azure_openai", "azure_openai"),
                Map.entry("azure-openai", "azure_openai"), Map.entry("openai_chat", "openai_chat"),
                Map.entry("openai", "codex"), Map.entry("codex", "codex"), Map.entry("codex_exec", "codex_exec"),
                Map.entry("claude", "claude_chat"), Map.entry("claude_chat", "claude_chat"),
                Map.entry("anthropic", "claude_chat"), Map.entry("claude_code_exec", "claude_code_exec"),
                Map.entry("cursor", "cursor_exec"), Map.entry("cursor_agent", "cursor_exec"),
                Map.entry("cursor_exec", "cursor_exec"), Map.entry("copilot", "copilot_chat"),
                Map.entry("copilot_cli", "copilot_chat"), Map.entry("github_copilot", "copilot_chat"),
                Map.entry("copilot_chat", "copilot_chat"), Map.entry("copilot_exec", "copilot_exec"),
                Map.entry("qwen", "qwen_chat"), Map.entry("qwen_chat", "qwen_chat"), Map.entry("minimax", "minimax_chat"),
                Map.entry("minimax_chat", "minimax_chat"), Map.entry("openai_compatible", "openai_compatible"),
                Map.entry("openai_compatible_chat", "openai_compatible"),
                Map.entry("openai-compatible", "openai_compatible"), Map.entry("compat", "openai_compatible"));
        assertEquals(expected, BackendNames.ALIASES);
        expected.forEach((alias, canon) -> assertEquals(canon, BackendNames.normalize("  " + alias.toUpperCase() + " ")));
        assertEquals("azure_openai", BackendNames.normalize(""));
        assertEquals("azure_openai", BackendNames.normalize(null));
        assertEquals("mystery", BackendNames.normalize(" Mystery "));
    }

    @Test
    void defaultModels() {
        assertEquals("gpt-4o", BackendNames.defaultModel("azure"));
        assertEquals("gpt-4o", BackendNames.defaultModel("openai_chat"));
        assertEquals("gpt-4o", BackendNames.defaultModel("codex_exec"));
        assertEquals("claude-sonnet-4-6", BackendNames.defaultModel("claude"));
        assertEquals("claude-sonnet-4-6", BackendNames.defaultModel("claude_code_exec"));
        assertEquals("composer-2.5", BackendNames.defaultModel("cursor"));
        assertEquals("Qwen/Qwen3.5-4B", BackendNames.defaultModel("qwen"));
        assertEquals("MiniMax-M3", BackendNames.defaultModel("minimax"));
        assertEquals("gpt-4o-mini", BackendNames.defaultModel("compat"));
        assertEquals("gpt-4o", BackendNames.defaultModel("copilot_exec"));
        assertEquals("gpt-4o", BackendNames.defaultModel("unknown"));
    }

    @Test
    void pairings() {
        assertEquals(new RolePair("claude_chat", "claude_chat"), BackendNames.pairing("claude", false));
        assertEquals(new RolePair("codex_exec", "codex_exec"), BackendNames.pairing("openai", false));
        assertEquals(new RolePair("openai_chat", "claude_code_exec"), BackendNames.pairing("claude_code_exec", false));
        assertEquals(new RolePair("openai_chat", "cursor_exec"), BackendNames.pairing("cursor", false));
        assertEquals(new RolePair("copilot_chat", "copilot_chat"), BackendNames.pairing("copilot", false));
        assertEquals(new RolePair("openai_chat", "copilot_exec"), BackendNames.pairing("copilot_exec", false));
        assertEquals(new RolePair("openai_chat", "qwen_chat"), BackendNames.pairing("qwen", false));
        assertEquals(new RolePair("openai_chat", "openai_chat"), BackendNames.pairing("qwen", true));
        assertEquals(new RolePair("openai_chat", "minimax_chat"), BackendNames.pairing("minimax", false));
        assertEquals(new RolePair("openai_compatible", "openai_compatible"), BackendNames.pairing("compat", false));
        assertEquals(new RolePair("openai_chat", "openai_chat"), BackendNames.pairing("azure_openai", false));
        assertEquals(new RolePair("openai_chat", "openai_chat"), BackendNames.pairing("mystery", false));
    }

    @Test
    void sentinelsAndRoleDefaults() {
        assertTrue(BackendNames.isSentinel(" gpt-5.5 "));
        assertTrue(BackendNames.isSentinel("gpt-5.4"));
        assertFalse(BackendNames.isSentinel(null));
        assertFalse(BackendNames.isSentinel("gpt-4o"));
        assertTrue(BackendNames.isRoleDefault(null));
        assertTrue(BackendNames.isRoleDefault(""));
        assertTrue(BackendNames.isRoleDefault("openai_chat"));
        assertFalse(BackendNames.isRoleDefault("claude_chat"));
    }
}
