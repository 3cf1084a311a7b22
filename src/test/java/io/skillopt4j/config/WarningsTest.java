package io.skillopt4j.config;

import io.skillopt4j.notebook.SkillOpt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarningsTest {
    static final String SEARCHQA = ConfigResolverTest.SEARCHQA;
    static final String RETIRED = "gradient.max_analyst_rounds was retired and is ignored: the analyst call count "
            + "follows from the rollout results, gradient.minibatch_size and gradient.failure_only. Still supplied via ";
    @TempDir Path dir;

    static List<String> lines(SkillOpt b) {
        return b.resolve().warnings().stream().map(ConfigWarning::toString).toList();
    }

    @Test
    void credentialFlagsWarnInUpstreamOrderWithoutTheSecret() {
        List<String> w = lines(Cfg.load(SEARCHQA).flag("minimax_api_key", "mm-secret-1")
                .flag("azure_api_key", "az-secret-1").flag("target_azure_openai_api_key", "t-secret-1")
                .flag("qwen_chat_api_key", "").flag("optimizer_qwen_chat_api_key", "q-secret-1"));
        assertEquals(List.of(
                "WARNING DeprecationWarning: --azure_api_key is deprecated: provide credentials via AZURE_OPENAI_API_KEY or --azure_openai_auth_mode=managed_identity instead.",
                "WARNING DeprecationWarning: --target_azure_openai_api_key is deprecated: provide credentials via TARGET_AZURE_OPENAI_API_KEY or --target_azure_openai_auth_mode=managed_identity instead.",
                "WARNING DeprecationWarning: --optimizer_qwen_chat_api_key is deprecated: provide credentials via OPTIMIZER_QWEN_CHAT_API_KEY instead.",
                "WARNING DeprecationWarning: --minimax_api_key is deprecated: provide credentials via MINIMAX_API_KEY instead."), w);
        assertTrue(w.stream().noneMatch(s -> s.contains("secret-1")));
    }

    @Test
    void credentialCfgOptionsWarnByLeafName() {
        List<String> w = lines(Cfg.load(SEARCHQA).cfgOptions(" model.Qwen_Chat_API_KEY =abc",
                "model.target_minimax_api_key=x1", "env.search_token=t0k", "model.max_tokens=5",
                "model.azure_openai_api_key=", "model.password=p"));
        assertEquals(List.of(
                "WARNING DeprecationWarning: --cfg-options model.Qwen_Chat_API_KEY=... exposes a credential in the process command line: provide it via QWEN_CHAT_API_KEY instead.",
                "WARNING DeprecationWarning: --cfg-options model.target_minimax_api_key=... exposes a credential in the process command line: provide it via MINIMAX_API_KEY instead.",
                "WARNING DeprecationWarning: --cfg-options env.search_token=... exposes a credential in the process command line: provide it via a backend-specific environment variable or managed identity instead.",
                "WARNING DeprecationWarning: --cfg-options model.password=... exposes a credential in the process command line: provide it via a backend-specific environment variable or managed identity instead.",
                "WARNING UserWarning: --cfg-options model.Qwen_Chat_API_KEY: unknown key model.Qwen_Chat_API_KEY (benchmark-specific keys belong under env.); did you mean model.qwen_chat_api_key?",
                "WARNING UserWarning: --cfg-options model.max_tokens: unknown key model.max_tokens (benchmark-specific keys belong under env.)",
                "WARNING UserWarning: --cfg-options model.password: unknown key model.password (benchmark-specific keys belong under env.)"), w);
    }

    @Test
    void evalEmitsNoCredentialWarnings() {
        assertEquals(List.of(), lines(Cfg.load(SEARCHQA).forEval().flag("azure_api_key", "zz-cfg-test-secret-2")));
    }

    @Test
    void retiredFlagWarnsEvenWithZero() {
        ResolvedConfig r = Cfg.load(SEARCHQA).flag("max_analyst_rounds", 0).resolve();
        assertEquals(List.of(new ConfigWarning("FutureWarning", RETIRED + "--max_analyst_rounds; remove it.")), r.warnings());
        assertFalse(r.flat().has("max_analyst_rounds"));
    }

    @Test
    void retiredSourcesAreListedInOrder() {
        ResolvedConfig r = Cfg.load(SEARCHQA).flag("max_analyst_rounds", 2)
                .cfgOptions("max_analyst_rounds=3", "gradient.max_analyst_rounds=4").resolve();
        assertEquals(List.of(new ConfigWarning("FutureWarning", RETIRED + "--max_analyst_rounds, --cfg-options "
                + "max_analyst_rounds, --cfg-options gradient.max_analyst_rounds; remove it.")), r.warnings());
        assertFalse(r.flat().has("max_analyst_rounds"));
        assertFalse(r.flat().has("gradient"));
    }

    @Test
    void retiredKeyInTheFileIsReportedUnlessNull() throws IOException {
        Path f = dir.resolve("r.yaml");
        Files.writeString(f, "gradient: {max_analyst_rounds: 3, minibatch_size: 2}\n");
        ResolvedConfig r = Cfg.load(f).resolve();
        assertEquals(List.of(new ConfigWarning("FutureWarning", RETIRED + "the config file; remove it.")), r.warnings());
        assertEquals(2, r.flat().get("minibatch_size"));
        Files.writeString(f, "gradient: {max_analyst_rounds: null}\n");
        assertEquals(List.of(), Cfg.load(f).resolve().warnings());
        Files.writeString(f, "max_analyst_rounds: 2\nbatch_size: 3\n");
        ResolvedConfig flat = Cfg.load(f).resolve();
        assertEquals(List.of(new ConfigWarning("FutureWarning", RETIRED + "the config file; remove it.")), flat.warnings());
        assertEquals(Map.of("batch_size", 3), Map.of("batch_size", flat.flat().get("batch_size")));
        assertFalse(flat.flat().has("max_analyst_rounds"));
    }

    @Test
    void retiredDottedOverrideDoesNotFlipAFlatFile() throws IOException {
        Path f = dir.resolve("flat.yaml");
        Files.writeString(f, "batch_size: 3\n");
        ResolvedConfig r = Cfg.load(f).cfgOptions("gradient.max_analyst_rounds=4").resolve();
        assertEquals(3, r.flat().get("batch_size"));
        assertFalse(r.flat().has("gradient"));
    }

    @Test
    void unknownUndottedOverrideWarnsAndEnvKeysPassSilently() {
        List<String> w = lines(Cfg.load(SEARCHQA).cfgOptions("bach_size=3", "env.anything=1",
                "workers=2", "trian.seed=1"));
        assertEquals(List.of(
                "WARNING UserWarning: --cfg-options bach_size: unknown key bach_size (benchmark-specific keys belong under env.); did you mean batch_size?",
                "WARNING UserWarning: --cfg-options trian.seed: unknown section trian (benchmark-specific keys belong under env.); did you mean train.seed?"), w);
    }
}
