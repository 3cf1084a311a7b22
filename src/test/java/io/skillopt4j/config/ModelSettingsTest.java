package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.Redactor;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class ModelSettingsTest {
    @Test void everyKeyIsARowAndPerRoleKeysHaveBothRoleRows() {
        for (ModelKey k : ModelKey.values()) {
            assertEquals(k.name().toLowerCase(java.util.Locale.ROOT), k.row().key());
            assertEquals(k.perRole(), Flags.byKey("optimizer_" + k.key()).isPresent(), k.key());
        }
        assertTrue(ModelKey.OPENAI_COMPATIBLE_MAX_TOKENS.perRole());
        assertFalse(ModelKey.MINIMAX_MAX_TOKENS.perRole());
    }

    @Test void configRoleFormThenSharedThenEnvironmentRoleFormThenSharedThenTableDefault() {
        ModelKey k = ModelKey.OPENAI_COMPATIBLE_MAX_TOKENS;
        Map<String, String> env = Map.of("TARGET_OPENAI_COMPATIBLE_MAX_TOKENS", "3", "OPENAI_COMPATIBLE_MAX_TOKENS", "4");
        FlatConfig both = FlatConfig.of(Map.of("target_openai_compatible_max_tokens", 1, "openai_compatible_max_tokens", 2));
        assertEquals(1, new ModelSettings(both, env, "target").integer(k));
        assertEquals(2, new ModelSettings(both, env, "optimizer").integer(k));
        assertEquals(3, new ModelSettings(FlatConfig.of(Map.of("openai_compatible_max_tokens", " ")), env, "target").integer(k), "blank = unset");
        assertEquals(4, new ModelSettings(FlatConfig.empty(), env, "optimizer").integer(k));
        assertEquals(8000, new ModelSettings(FlatConfig.empty(), Map.of(), "target").integer(k), "the table's default");
        assertEquals(Duration.ofSeconds(300), new ModelSettings(null, null, "target").seconds(ModelKey.OPENAI_COMPATIBLE_TIMEOUT_SECONDS));
    }

    @Test void theTableCarriesTheEffectiveDefaults() {
        ModelSettings none = new ModelSettings(FlatConfig.empty(), Map.of(), "target");
        assertEquals("codex", none.string(ModelKey.CODEX_EXEC_PATH));
        assertEquals("never", none.string(ModelKey.CODEX_EXEC_APPROVAL_POLICY));
        assertEquals("copilot", none.string(ModelKey.COPILOT_EXEC_PATH));
        assertEquals(1, none.integer(ModelKey.EXEC_EMPTY_RESPONSE_RETRIES));
        assertEquals("claude", none.string(ModelKey.CLAUDE_CLI_BIN));
        assertEquals("az", none.string(ModelKey.AZ_PATH));
        assertEquals(Duration.ofSeconds(300), none.seconds(ModelKey.CLAUDE_CHAT_TIMEOUT));
        assertEquals("codex", Flags.byKey("codex_exec_path").orElseThrow().env().fallback());
        assertEquals("", Flags.byKey("codex_exec_path").orElseThrow().defaultValue(), "the base YAML's value stays the row's default");
    }

    @Test void aliasesAzureRoleFormsAndThePerRoleRowPick() {
        assertEquals("/x/codex", new ModelSettings(FlatConfig.of(Map.of("codex_bin", "/x/codex")), Map.of(), "target").string(ModelKey.CODEX_EXEC_PATH));
        Map<String, String> env = Map.of("AZURE_OPENAI_OPTIMIZER_ENDPOINT", "https://o", "AZURE_OPENAI_ENDPOINT", "https://s");
        assertEquals("https://o", new ModelSettings(FlatConfig.empty(), env, "optimizer").string(ModelKey.AZURE_OPENAI_ENDPOINT));
        assertEquals("https://s", new ModelSettings(FlatConfig.empty(), env, "target").string(ModelKey.AZURE_OPENAI_ENDPOINT));
        ModelSettings opt = new ModelSettings(FlatConfig.empty(), Map.of("COPILOT_CHAT_OPTIMIZER_MODEL", "m"), "optimizer");
        assertEquals("m", opt.string(opt.pick(ModelKey.COPILOT_CHAT_OPTIMIZER_MODEL, ModelKey.COPILOT_CHAT_TARGET_MODEL)));
    }

    @Test void secretsReadTheEnvironmentFirstAndAreRemembered() {
        ModelSettings s = new ModelSettings(FlatConfig.of(Map.of("openai_compatible_api_key", "cfg-secret-1234")),
                Map.of("TARGET_OPENAI_COMPATIBLE_API_KEY", "env-secret-5678"), "target");
        assertEquals("env-secret-5678", s.secret(ModelKey.OPENAI_COMPATIBLE_API_KEY));
        assertFalse(Redactor.scrub("key env-secret-5678").contains("env-secret-5678"));
        assertEquals("cfg-secret-1234", new ModelSettings(s.cfg(), Map.of(), "target").secret(ModelKey.OPENAI_COMPATIBLE_API_KEY));
        assertEquals("", new ModelSettings(null, null, "target").secret(ModelKey.ANTHROPIC_API_KEY));
    }

    @Test void badValuesNameTheKeyReadFirst() {
        ConfigException e = assertThrows(ConfigException.class, () -> new ModelSettings(FlatConfig.empty(),
                Map.of("OPENAI_COMPATIBLE_MAX_TOKENS", "many"), "target").integer(ModelKey.OPENAI_COMPATIBLE_MAX_TOKENS));
        assertTrue(e.getMessage().contains("target_openai_compatible_max_tokens"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> new ModelSettings(FlatConfig.of(Map.of("codex_exec_web_search", "maybe")), Map.of(), "target")
                .bool(ModelKey.CODEX_EXEC_WEB_SEARCH));
        assertTrue(e.getMessage().contains("codex_exec_web_search"), e.getMessage());
    }

    @Test void aSettingReadAlsoFromTheEnvironmentIsNotReadByConfigAlone() {
        assertThrows(IllegalStateException.class, () -> Setting.string("codex_exec_path").of(FlatConfig.empty()));
        assertEquals("x", Setting.string("codex_exec_path").in(FlatConfig.of(Map.of("codex_exec_path", "x"))).orElseThrow());
    }
}
