package io.skillopt4j.notebook;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.frames.BundleDiff;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** A multi-file Agent Skill trained on the simulator (configs/demo/bundle.yaml): it learns by creating a linked reference. */
class BundleTrainingTest {
    private static SimServer sim;

    @BeforeAll static void startSim() { sim = SimServer.builder().seed(7).start(); }

    @AfterAll static void stopSim() { sim.close(); }

    private static SkillOpt small(Path out) {
        return SkillOpt.config("configs/demo/bundle.yaml").set("train.num_epochs", 1)
                .backend("openai_compatible").baseUrl(sim.url()).outRoot(out)
                .environment(Map.of("OPENAI_COMPATIBLE_API_KEY", "sk-test-not-a-real-key"));
    }

    @Test
    void aBundleRunLearnsByCreatingAReferenceTheBodyLinks(@TempDir Path tmp) throws Exception {
        Run run = small(tmp.resolve("run")).train();
        assertEquals("finished", run.status(), run.warnings().toString());
        SkillBundle best = run.bestBundle();
        assertEquals("house-rules", best.name());
        String reference = best.file("references/house-rules.md").orElseThrow(() -> new AssertionError(best.files().keySet().toString()));
        assertTrue(java.util.Arrays.stream(io.skillopt4j.env.houserules.HouseCategory.values()).anyMatch(c -> c.ruleIn(reference)),
                "the reference states house conventions:\n" + reference);
        assertTrue(best.skillMd().contains("references/house-rules.md"), "the body links the reference:\n" + best.skillMd());
        assertTrue(best.problems("house-rules").isEmpty(), best.problems("house-rules").toString());
        // the run folder holds the best bundle as an Agent Skill folder next to best_skill.md
        assertEquals(best.skillMd(), Files.readString(run.dir().resolve("best_skill/SKILL.md")));
        assertEquals(reference, Files.readString(run.dir().resolve("best_skill/references/house-rules.md")));
        assertTrue(Files.isRegularFile(run.dir().resolve("skills/skill_v0000.md")));
        // it learned: the test score of the best bundle beats the initial one
        Map<?, ?> summary = run.snapshot().summary();
        double initial = ((Number) summary.get("baseline_test_hard")).doubleValue();
        double trained = ((Number) summary.get("test_hard")).doubleValue();
        assertTrue(trained > initial + 0.3, "initial " + initial + ", best " + trained);
        // analysis: a file column in the edits, per-file diffs, the report shows each file
        Frame edits = run.edits();
        assertTrue(edits.stringColumn("file").contains("references/house-rules.md"), edits.toString());
        BundleDiff d = run.bundleDiff();
        assertEquals(2, d.files().size(), d.toString());
        assertTrue(d.files().get(1).to().endsWith("references/house-rules.md"));
        assertTrue(d.files().get(1).added() > 0);
        assertTrue(Files.readString(run.report()).contains("<h4>references/house-rules.md</h4>"));
        // export: a ready Agent Skill folder
        SkillBundle exported = run.exportSkill(tmp.resolve("skills/house-rules"));
        assertEquals(exported, SkillBundle.read(tmp.resolve("skills/house-rules"), ""));
    }

    @Test
    void aBadBundleIsATypedErrorBeforeAnyModelCallAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("House_Rules");
        Files.createDirectories(bad);
        Files.writeString(bad.resolve("SKILL.md"), "---\nname: House_Rules\ndescription: " + "x".repeat(1100) + "\n---\n# body\n");
        Path out = tmp.resolve("out");
        ConfigException e = assertThrows(ConfigException.class,
                () -> small(out).set("env.skill_init", bad.toString()).baseUrl("http://127.0.0.1:9/v1").trainer());
        assertTrue(e.getMessage().contains("frontmatter name \"House_Rules\" is not lower-case"), e.getMessage());
        assertTrue(e.getMessage().contains("frontmatter description has 1100 characters (allowed: at most 1024)"), e.getMessage());
        assertFalse(Files.exists(out), "nothing written");
    }
}
