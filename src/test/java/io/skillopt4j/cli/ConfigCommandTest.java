package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.skillopt4j.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigCommandTest {
    static final String SEARCHQA = "src/test/resources/upstream-configs/searchqa/default.yaml";

    @Test
    void showWithClaudeCodeExecBackendPrintsClaudeTargetAndModel() {
        CliRun r = run("config", "show", "--config", SEARCHQA, "--backend", "claude_code_exec");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"target_backend\": \"claude_code_exec\""), r.out());
        assertTrue(r.out().contains("\"target_model\": \"claude-sonnet-4-6\""), r.out());
        Map<String, Object> m = Json.parseObject(r.out());
        assertEquals("searchqa", m.get("env"));
        assertEquals("openai_chat", m.get("optimizer_backend"));
        assertEquals("gpt-5.5", m.get("optimizer_model"));
        assertEquals(400, m.get("train_size"));
        assertTrue(((String) m.get("out_root")).contains("outputs/skillopt_searchqa_gpt-5.5_"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void showMasksSecretsAndPrintsWarningsOnStderr() {
        CliRun r = run("config", "show", "--config", SEARCHQA, "--azure_openai_api_key", "sk-abcdefghijklmnop",
                "--cfg-options", "gradient.max_analyst_rounds=2");
        assertEquals(0, r.code(), r.err());
        assertTrue(!r.out().contains("sk-abcdefghijklmnop") && !r.err().contains("sk-abcdefghijklmnop"));
        assertTrue(r.out().contains("\"azure_openai_api_key\": \"sk-a...mnop\""), r.out());
        assertEquals(List.of("WARNING DeprecationWarning: --azure_openai_api_key is deprecated: provide credentials via "
                + "AZURE_OPENAI_API_KEY or --azure_openai_auth_mode=managed_identity instead.",
                "WARNING FutureWarning: gradient.max_analyst_rounds was retired and is ignored: the analyst call count "
                + "follows from the rollout results, gradient.minibatch_size and gradient.failure_only. Still supplied "
                + "via --cfg-options gradient.max_analyst_rounds; remove it."), r.err().lines().toList());
    }

    @Test
    void showPrintsSortedKeys() {
        CliRun r = run("config", "show", "--config", SEARCHQA);
        List<String> keys = r.out().lines().filter(l -> l.startsWith("  \"")).map(l -> l.substring(3, l.indexOf('"', 3))).toList();
        assertEquals(keys.stream().sorted().toList(), keys);
        assertTrue(keys.contains("out_root"));
    }

    @Test
    void badInputExitsTwoWithOneLine() {
        for (String[] args : List.of(
                new String[] {"config", "show", "--config", "missing.yaml"},
                new String[] {"config", "show", "--config", SEARCHQA, "--batch_size", "many"},
                new String[] {"config", "show", "--config", SEARCHQA, "--cfg-options", "train.seed"},
                new String[] {"config", "show", "--config", SEARCHQA, "--cfg-options", "optimizer.lr_scheduler=x"},
                new String[] {"config", "show", "--config", SEARCHQA, "--backend", "gpt"})) {
            CliRun r = run(args);
            assertEquals(2, r.code(), String.join(" ", args));
            assertEquals("", r.out());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("error: "), r.err());
        }
    }

    @Test
    void missingConfigIsAUsageError() {
        CliRun r = run("config", "show");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("error: Missing required option: '--config=<yaml>'"), r.err());
    }

    @Test
    void uniquePrefixesWorkAndAmbiguousOnesAreUsageErrors() {
        CliRun ok = run("config", "show", "--config", SEARCHQA, "--batch", "3", "--num_ep", "2");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("\"batch_size\": 3,") && ok.out().contains("\"num_epochs\": 2,"), ok.out());
        CliRun bad = run("config", "show", "--config", SEARCHQA, "--split", "5");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("'--split' is not unique"), bad.err());
    }
}
