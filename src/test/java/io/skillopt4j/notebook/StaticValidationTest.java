package io.skillopt4j.notebook;

import io.skillopt4j.ConfigException;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #18 "static validation first, all at once" in the API: every problem in one ConfigException, one line each,
 * thrown before a model call, a benchmark or a folder (docs/frames.md "When something is wrong").
 */
class StaticValidationTest {
    private static final String DEMO = "configs/demo/default.yaml";
    @TempDir Path tmp;

    @Test void aSectionOfTheWrongTypeIsAnErrorNotASilentlyFlatConfig() {
        ConfigException e = assertThrows(ConfigException.class, () -> SkillOpt.config(Map.of("train", 5)).resolve());
        assertEquals("<map>: train must be a mapping (a section of keys), got an integer 5", e.getMessage());
        ConfigException list = assertThrows(ConfigException.class,
                () -> SkillOpt.config(Map.of("optimizer", List.of(1, 2), "env", Map.of("name", "house-rules"))).resolve());
        assertTrue(list.getMessage().contains("optimizer must be a mapping (a section of keys), got a list [1, 2]"), list.getMessage());
    }

    @Test void everyProblemIsReportedAtOnceBeforeAnyModelCallOrFolder() {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path out = tmp.resolve("run");
            ConfigException e = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).simulator(sim).outRoot(out)
                    .set("train.batch_size", "abc").set("optimizer.lr_scheduler", "cosin").set("env.name", "house-rule")
                    .set("evaluation.gate_mixed_weight", 1.5).trainer());
            List<String> lines = e.getMessage().lines().toList();
            assertEquals(4, lines.size(), e.getMessage());
            assertTrue(lines.get(0).contains("train.batch_size must be an integer >= 1, got \"abc\""), e.getMessage());
            assertTrue(e.getMessage().contains("got \"cosin\"; did you mean cosine?"), e.getMessage());
            assertTrue(e.getMessage().contains("evaluation.gate_mixed_weight must be a number in [0, 1], got 1.5"), e.getMessage());
            assertTrue(e.getMessage().contains("unknown env \"house-rule\"; did you mean house-rules?"), e.getMessage());
            assertEquals(0, sim.requests(), "no model call");
            assertFalse(Files.exists(out), "no run folder");
        }
    }

    @Test void anOutRootThatIsAFileIsAnErrorAndNothingIsCreated() throws IOException {
        Path file = Files.writeString(tmp.resolve("file.txt"), "x");
        ConfigException e = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).outRoot(file).trainer());
        assertEquals("out_root " + file + ": exists and is a file, not a folder", e.getMessage());
        ConfigException under = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).outRoot(file.resolve("run")).trainer());
        assertEquals("out_root " + file.resolve("run") + ": cannot be created because " + file + " is a file", under.getMessage());
        assertEquals(List.of(file), Files.list(tmp).toList());
    }

    @Test void splitSettingsAndDataPathsAreCheckedWhenATrainingIsBuilt() {
        Path missing = tmp.resolve("missing.json");
        SkillOpt b = SkillOpt.config(DEMO).outRoot(tmp.resolve("run")).set("env.split_mode", "ratio")
                .set("env.split_ratio", "2:1").set("env.data_path", missing.toString());
        assertDoesNotThrow(b::resolve, "inspecting a config does not look at its data");
        ConfigException e = assertThrows(ConfigException.class, b::check);
        assertEquals(List.of("env.split_ratio: split_ratio must be in train:val:test form like \"2:1:7\" (quote it in YAML), got \"2:1\"",
                "env.data_path " + missing + ": no such file or directory"), e.getMessage().lines().toList());
        ConfigException dir = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).outRoot(tmp.resolve("run"))
                .set("env.split_mode", "split_dir").set("env.split_dir", tmp.resolve("nodir").toString()).trainer());
        assertEquals("env.split_dir: directory not found: " + tmp.resolve("nodir"), dir.getMessage());
    }

    @Test void aBaseUrlThatIsNoUrlAndABadEvalSplitAreErrors() throws IOException {
        ConfigException url = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).baseUrl("not-a-url").resolve());
        assertTrue(url.getMessage().endsWith("model.openai_compatible_base_url must be an http(s) URL with a host "
                + "(e.g. http://localhost:8000/v1), got \"not-a-url\""), url.getMessage());
        Path skill = Files.writeString(tmp.resolve("skill.md"), "# Skill\n");
        ConfigException split = assertThrows(ConfigException.class,
                () -> SkillOpt.config(DEMO).forEval().outRoot(tmp.resolve("ev")).evaluator(skill, "valid_sen"));
        assertEquals("--split must be one of train, valid_seen, valid_unseen, all, got \"valid_sen\"; did you mean valid_seen?", split.getMessage());
        ConfigException noSkill = assertThrows(ConfigException.class,
                () -> SkillOpt.config(DEMO).forEval().outRoot(tmp.resolve("ev")).evaluator(tmp.resolve("nope.md"), "all"));
        assertEquals("--skill: file not found: " + tmp.resolve("nope.md"), noSkill.getMessage());
        assertFalse(Files.exists(tmp.resolve("ev")));
    }

    @Test void duplicateKeysAndBinaryFilesNameTheFileAndTheReason() throws IOException {
        Path dup = Files.writeString(tmp.resolve("dup.yaml"), "train:\n  seed: 1\n  seed: 2\n");
        assertEquals(dup + ": invalid YAML at line 3, column 3: found duplicate key seed",
                assertThrows(ConfigException.class, () -> SkillOpt.config(dup).resolve()).getMessage());
        Path bin = Files.write(tmp.resolve("bin.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertEquals("config file " + bin + ": not a text file (not valid UTF-8; a binary file?)",
                assertThrows(ConfigException.class, () -> SkillOpt.config(bin).resolve()).getMessage());
        Path empty = Files.writeString(tmp.resolve("empty.yaml"), "# nothing\n");
        assertTrue(assertThrows(ConfigException.class, () -> SkillOpt.config(empty).resolve()).getMessage()
                .startsWith(empty + ": the config file sets nothing (empty document)"));
    }
}
