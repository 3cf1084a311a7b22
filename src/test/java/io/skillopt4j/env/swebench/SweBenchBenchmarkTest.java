package io.skillopt4j.env.swebench;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweBenchBenchmarkTest {
    @TempDir Path tmp;

    private Map<String, Object> config() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("split_mode", "split_dir");
        cfg.put("split_dir", EnvFixtures.resource("swebench").toString());
        cfg.put("swebench_harness", "python3 " + EnvFixtures.resource("fake_swebench_harness.py"));
        cfg.put("swebench_check_docker", false);
        return cfg;
    }

    @Test
    void patches_are_extracted_from_diff_blocks_or_raw_diffs() {
        assertEquals("--- a/x\n+++ b/x\n", SweBenchBenchmark.extractPatch("Fix:\n```diff\n--- a/x\n+++ b/x\n```\n"));
        assertEquals("diff --git a/x b/x\n+y\n", SweBenchBenchmark.extractPatch("here diff --git a/x b/x\n+y"));
        assertEquals("", SweBenchBenchmark.extractPatch("I cannot fix this."));
    }

    @Test
    void the_harness_cli_grades_each_patch() throws Exception {
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            String body = u.contains("Issue 1:") || u.contains("Issue 4:") ? "+FIXED" : u.contains("Issue 2:") ? "+HALF"
                    : u.contains("Issue 3:") ? "" : u.contains("Issue 5:") ? "+CRASH" : "+nothing";
            if (body.isEmpty()) return "I cannot fix this.";
            return "```diff\ndiff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -1 +1,2 @@\n x\n" + body + "\n```";
        });
        Benchmark b = Benchmarks.create("swebench", EnvFixtures.context(config(), model, tmp));
        assertEquals(List.of("astropy/astropy", "django/django"), b.taskTypes());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of(1.0, 0.0, 0.0, 1.0, 0.0, 0.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals(0.5, rs.get(1).soft(), "1 of 2 FAIL_TO_PASS tests pass");
        assertTrue(rs.get(2).failReason().startsWith("empty-patch"));
        assertEquals("harness-error: Error building image for astropy__astropy-5", rs.get(4).failReason());
        assertTrue(rs.get(5).failReason().startsWith("unresolved"));
        assertTrue(Files.readString(tmp.resolve("r/predictions/astropy__astropy-1/model.patch")).contains("+FIXED"));
        assertTrue(model.requests.get(0).lastUserText().startsWith("## Repository\n"));
    }

    @Test
    void a_missing_harness_fails_before_any_model_call() {
        Map<String, Object> cfg = config();
        cfg.put("swebench_harness", "python3 -m no_such_module_swebench");
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("swebench",
                EnvFixtures.context(cfg, new EnvFixtures.Scripted(r -> { throw new AssertionError("no call"); }), tmp)));
        assertTrue(e.getMessage().contains("pip install swebench"), e.getMessage());
    }
}
