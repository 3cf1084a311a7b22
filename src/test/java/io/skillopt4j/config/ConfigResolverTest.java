package io.skillopt4j.config;

import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigResolverTest {
    static final String SEARCHQA = "src/test/resources/upstream-configs/searchqa/default.yaml";
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC);
    @TempDir Path dir;

    SkillOpt searchqa() {
        return Cfg.load(SEARCHQA).clock(CLOCK).workingDirectory(dir);
    }

    static Map<String, Object> flat(SkillOpt b) { return b.resolve().flat().asMap(); }

    static void roles(Map<String, Object> f, String label, String opt, String tgt, String optModel, String tgtModel) {
        assertEquals(label, f.get("model_backend"), "model_backend");
        assertEquals(opt, f.get("optimizer_backend"), "optimizer_backend");
        assertEquals(tgt, f.get("target_backend"), "target_backend");
        assertEquals(optModel, f.get("optimizer_model"), "optimizer_model");
        assertEquals(tgtModel, f.get("target_model"), "target_model");
    }

    @Test
    void shippedConfigWithoutBackendKeepsAzureDefaults() {
        roles(flat(searchqa()), "azure_openai", "openai_chat", "openai_chat", "gpt-5.5", "gpt-5.5");
    }

    @Test
    void claudeLabelFillsBothRolesAndModels() {
        roles(flat(searchqa().backend("claude")), "claude_chat", "claude_chat", "claude_chat",
                "claude-sonnet-4-6", "claude-sonnet-4-6");
    }

    @Test
    void explicitRoleFlagWinsOverTheLabel() {
        roles(flat(searchqa().backend("claude").targetBackend("openai_chat")), "claude_chat", "claude_chat",
                "openai_chat", "claude-sonnet-4-6", "gpt-5.5");
        roles(flat(searchqa().backend("claude").cfgOptions("model.target_backend=openai_chat")), "claude_chat",
                "claude_chat", "openai_chat", "claude-sonnet-4-6", "gpt-5.5");
    }

    @Test
    void flatFormRoleOverrideIsNotExplicit() {
        roles(flat(searchqa().backend("claude").cfgOptions("target_backend=openai_chat")), "claude_chat",
                "claude_chat", "claude_chat", "claude-sonnet-4-6", "claude-sonnet-4-6");
    }

    @Test
    void codexLabelKeepsPlaceholderModels() {
        roles(flat(searchqa().backend("codex")), "codex", "codex_exec", "codex_exec", "gpt-5.5", "gpt-5.5");
    }

    @Test
    void claudeCodeExecOptimizerGetsClaudeModelSeedForkRule() {
        roles(flat(searchqa().backend("claude_code_exec")), "claude_code_exec", "openai_chat", "claude_code_exec",
                "gpt-5.5", "claude-sonnet-4-6");
        roles(flat(searchqa().backend("claude_code_exec").optimizerBackend("claude_code_exec")), "claude_code_exec",
                "claude_code_exec", "claude_code_exec", "claude-sonnet-4-6", "claude-sonnet-4-6");
        roles(flat(searchqa().optimizerBackend("claude_code_exec").flag("optimizer_model", "gpt-5.5")), "azure_openai",
                "claude_code_exec", "openai_chat", "gpt-5.5", "gpt-5.5");
    }

    @Test
    void cfgOptionsBackendCountsAsExplicitLabel() {
        roles(flat(searchqa().cfgOptions("model.backend=cursor")), "cursor_exec", "openai_chat", "cursor_exec",
                "gpt-5.5", "composer-2.5");
        roles(flat(searchqa().cfgOptions("model.backend=")), "azure_openai", "openai_chat", "openai_chat",
                "gpt-5.5", "gpt-5.5");
    }

    @Test
    void targetOnlyLabelsAndTheirModelRules() {
        roles(flat(searchqa().backend("copilot_exec")), "copilot_exec", "openai_chat", "copilot_exec", "gpt-5.5", "");
        roles(flat(searchqa().backend("minimax")), "minimax_chat", "openai_chat", "minimax_chat", "gpt-5.5", "MiniMax-M3");
        roles(flat(searchqa().backend("minimax").flag("minimax_model", "MiniMax-X")), "minimax_chat", "openai_chat",
                "minimax_chat", "gpt-5.5", "MiniMax-X");
        roles(flat(searchqa().backend("qwen")), "qwen_chat", "openai_chat", "qwen_chat", "gpt-5.5", "Qwen/Qwen3.5-4B");
        roles(flat(searchqa().backend("copilot")), "copilot_chat", "copilot_chat", "copilot_chat", "gpt-5.5", "gpt-5.5");
        roles(flat(searchqa().cfgOptions("model.backend=compat")), "openai_compatible", "openai_compatible",
                "openai_compatible", "gpt-5.5", "gpt-5.5");
    }

    @Test
    void explicitModelIsNeverReplaced() {
        roles(flat(searchqa().backend("claude").flag("target_model", "gpt-5.5")), "claude_chat", "claude_chat",
                "claude_chat", "claude-sonnet-4-6", "gpt-5.5");
        roles(flat(searchqa().backend("claude").cfgOptions("model.optimizer=gpt-5.4")), "claude_chat", "claude_chat",
                "claude_chat", "gpt-5.4", "claude-sonnet-4-6");
    }

    @Test
    void nonDefaultRoleFromYamlIsKept() throws IOException {
        Path f = write("c.yaml", "_base_: " + Path.of(SEARCHQA).toAbsolutePath() + "\nmodel: {target_backend: claude_chat}\n");
        roles(flat(Cfg.load(f).backend("cursor").clock(CLOCK)), "cursor_exec", "openai_chat", "claude_chat",
                "gpt-5.5", "claude-sonnet-4-6");
    }

    @Test
    void flatFileWithoutBackendGetsDefaultRolesOnlyWhereAbsent() throws IOException {
        Path f = write("flat.yaml", "env: searchqa\ntarget_backend: null\noptimizer_model: m\n");
        Map<String, Object> m = flat(Cfg.load(f).clock(CLOCK));
        assertFalse(m.containsKey("model_backend"));
        assertEquals("openai_chat", m.get("optimizer_backend"));
        assertTrue(m.containsKey("target_backend") && m.get("target_backend") == null);
    }

    @Test
    void evalRulesHaveNoQwenBranch() {
        Map<String, Object> m = flat(searchqa().forEval().cfgOptions("model.backend=qwen_chat"));
        roles(m, "qwen_chat", "openai_chat", "openai_chat", "gpt-5.5", "gpt-5.5");
        assertEquals(dir.resolve("outputs/eval_searchqa_gpt-5.5_20260304_050607").toString(), m.get("out_root"));
    }

    @Test
    void outRootIsNamedFromEnvAndOptimizerModel() throws IOException {
        assertEquals(dir.resolve("outputs/skillopt_searchqa_gpt-5.5_20260304_050607").toString(),
                flat(searchqa()).get("out_root"));
        assertEquals(dir.resolve("outputs/skillopt_searchqa_org-model_20260304_050607").toString(),
                flat(searchqa().flag("optimizer_model", "org/model")).get("out_root"));
        Path base = write("b.yaml", "_base_: " + Path.of("configs/_base_/default.yaml").toAbsolutePath() + "\n");
        assertEquals(dir.resolve("outputs/skillopt__gpt-5.5_20260304_050607").toString(),
                flat(Cfg.load(base).clock(CLOCK).workingDirectory(dir)).get("out_root"));
        Path flatFile = write("f.yaml", "batch_size: 2\n");
        assertEquals(dir.resolve("outputs/skillopt_unknown_unknown_20260304_050607").toString(),
                flat(Cfg.load(flatFile).clock(CLOCK).workingDirectory(dir)).get("out_root"));
        assertEquals(dir.resolve("runs/x").toString(), flat(searchqa().outRoot("runs/./x")).get("out_root"));
    }

    /** Without a clock the run is named with the system clock's local time, the zone looked up when it is named. */
    @Test
    void outRootWithoutAClockIsNamedWithTheLocalTimeNow() {
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss", java.util.Locale.ROOT);
        String before = java.time.LocalDateTime.now().format(f);
        String named = (String) flat(Cfg.load(SEARCHQA).workingDirectory(dir)).get("out_root");
        String after = java.time.LocalDateTime.now().format(f);
        String prefix = dir.resolve("outputs/skillopt_searchqa_gpt-5.5_").toString();
        assertTrue(named.startsWith(prefix), named);
        String stamp = named.substring(prefix.length());
        assertTrue(stamp.compareTo(before) >= 0 && stamp.compareTo(after) <= 0, before + " <= " + stamp + " <= " + after);
        String viaSystem = (String) ConfigResolver.system().resolve(ConfigRequest.file(Path.of(SEARCHQA))).flat().get("out_root");
        assertTrue(viaSystem.contains("outputs/skillopt_searchqa_gpt-5.5_"), viaSystem);
    }

    @Test
    void azureLegacyKeysFillBlankNewKeysOnly() {
        Map<String, Object> m = flat(searchqa().flag("azure_endpoint", "https://e").flag("azure_api_version", "v1"));
        assertEquals("https://e", m.get("azure_openai_endpoint"));
        assertEquals("2024-12-01-preview", m.get("azure_openai_api_version"));
        assertEquals("https://e", m.get("azure_endpoint"));
    }

    @Test
    void modelNamesStayStringsDeliberateFix() {
        Map<String, Object> m = flat(searchqa().flag("target_model", "123").cfgOptions("model.optimizer=4.5"));
        assertEquals("123", m.get("target_model"));
        assertEquals("4.5", m.get("optimizer_model"));
        assertTrue(flat(searchqa().flag("split_ratio", "2")).get("split_ratio") instanceof String);
    }

    @Test
    void nullModelIsAClearError() throws IOException {
        Path f = write("n.yaml", "model: {optimizer: null}\n");
        ConfigException e = assertThrows(ConfigException.class, () -> Cfg.load(f).resolve());
        assertEquals(f + ": model.optimizer (optimizer_model) must be a model name, got null", e.getMessage());
    }

    @Test
    void legacyFlagsBeatCfgOptions() {
        Map<String, Object> m = flat(searchqa().cfgOptions("train.batch_size=3").flag("batch_size", 5));
        assertEquals(5, m.get("batch_size"));
    }

    @Test
    void envPassThroughFlagsAndOverridesReachTheFlatConfig() {
        Map<String, Object> m = flat(searchqa().flag("workers", "3").cfgOptions("env.query=a=b", "env.split_dir=d"));
        assertEquals(3, m.get("workers"));
        assertEquals("a=b", m.get("query"));
        assertEquals("d", m.get("split_dir"));
    }

    @Test
    void warningsAreEmptyForAShippedConfig() {
        assertEquals(List.of(), searchqa().resolve().warnings());
    }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void undottedBackendOnAStructuredFileIsTopLevelAndLosesToModelBackend() {
        Map<String, Object> m = flat(searchqa().cfgOptions("backend=claude"));
        assertEquals("claude", m.get("backend"));
        roles(m, "azure_openai", "openai_chat", "openai_chat", "gpt-5.5", "gpt-5.5");
    }

    @Test
    void flatFormModelOverrideIsNotExplicit() {
        roles(flat(searchqa().backend("claude").cfgOptions("target_model=gpt-5.4")), "claude_chat", "claude_chat",
                "claude_chat", "claude-sonnet-4-6", "claude-sonnet-4-6");
    }

    @Test
    void dottedOverrideOnAFlatFileCanMakeItStructured() throws IOException {
        Path f = write("flat2.yaml", "batch_size: 3\nenv: searchqa\n");
        Map<String, Object> m = flat(Cfg.load(f).cfgOptions("model.target=t1").clock(CLOCK).workingDirectory(dir));
        assertEquals("t1", m.get("target_model"));
        assertEquals(3, m.get("batch_size"));
        assertEquals("searchqa", m.get("env"));
    }

    @Test
    void forEvalMayComeAfterFlags() {
        Map<String, Object> m = flat(searchqa().flag("target_model", "t").forEval());
        assertEquals(dir.resolve("outputs/eval_searchqa_t_20260304_050607").toString(), m.get("out_root"));
        ConfigException e = assertThrows(ConfigException.class, () -> searchqa().flag("batch_size", 3).forEval().resolve());
        assertEquals("unknown flag --batch_size", e.getMessage());
    }
}
