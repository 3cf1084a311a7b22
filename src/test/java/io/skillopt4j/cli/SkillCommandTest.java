package io.skillopt4j.cli;

import io.skillopt4j.env.SkillBundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** {@code skillopt skill export|check} and bad bundles given to {@code train}: exit 0 or 2, one line per problem, nothing written. */
class SkillCommandTest {
    @TempDir Path tmp;

    private Path bundle(String name, String skillMd) throws Exception {
        Path d = tmp.resolve("in").resolve(name);
        Files.createDirectories(d);
        Files.writeString(d.resolve("SKILL.md"), skillMd);
        return d;
    }

    @Test
    void checkAcceptsTheShippedDemoBundleAndRejectsBadOnesOneLineEach() throws Exception {
        CliRun ok = CliRun.run("skill", "check", "configs/demo/house-rules");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().startsWith("ok: house-rules (1 file"), ok.out());
        Path bad = bundle("Bad--Name", "---\nname: Bad--Name\ndescription: " + "d".repeat(1030) + "\n---\n# x\n");
        CliRun r = CliRun.run("skill", "check", bad.toString());
        assertEquals(2, r.code());
        assertEquals(2, r.err().lines().count(), r.err());
        assertTrue(r.err().lines().allMatch(l -> l.startsWith("error: ") && !l.contains("Exception")), r.err());
        assertTrue(r.err().contains("frontmatter name \"Bad--Name\" is not lower-case letters"), r.err());
        assertTrue(r.err().contains("frontmatter description has 1030 characters (allowed: at most 1024)"), r.err());
        Path noSkill = tmp.resolve("in/empty");
        Files.createDirectories(noSkill);
        CliRun missing = CliRun.run("skill", "check", noSkill.toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("missing SKILL.md"), missing.err());
    }

    @Test
    void exportWritesAReadyAgentSkillFolderFromARunFolder() throws Exception {
        Path run = tmp.resolve("run");
        Files.createDirectories(run);
        String packed = SkillBundle.of("---\nname: house-rules\ndescription: House formats.\n---\n# Rules\nRead references/a.md.\n")
                .with("references/a.md", "- a\n").pack();
        Files.writeString(run.resolve("best_skill.md"), packed);
        CliRun r = CliRun.run("skill", "export", run.toString(), "--to", tmp.resolve("out/.claude/skills").toString());
        assertEquals(0, r.code(), r.err());
        Path dir = tmp.resolve("out/.claude/skills/house-rules");
        assertEquals(SkillBundle.unpack(packed), SkillBundle.read(dir, ""));
        assertEquals(0, CliRun.run("skill", "check", dir.toString()).code());
        CliRun again = CliRun.run("skill", "export", run.toString(), "--to", tmp.resolve("out/.claude/skills").toString());
        assertEquals(2, again.code(), "an existing skill folder is never overwritten");
        // a SkillOpt single-file skill gets a frontmatter named after the folder
        Files.writeString(run.resolve("best_skill.md"), "# Skill\n- rule\n");
        assertEquals(0, CliRun.run("skill", "export", run.toString(), "--to", tmp.resolve("plain/my-skill").toString()).code());
        assertEquals("my-skill", SkillBundle.read(tmp.resolve("plain/my-skill"), "").name());
        CliRun capital = CliRun.run("skill", "export", run.toString(), "--to", tmp.resolve("plain/My_Skill").toString());
        assertEquals(2, capital.code());
        assertFalse(Files.exists(tmp.resolve("plain/My_Skill")), "nothing written");
    }

    @Test
    void trainRefusesABadBundleBeforeAnyModelCallAndWritesNothing() throws Exception {
        Path bad = bundle("house-rules", "---\nname: House-Rules\ndescription: d\n---\n# x\n");
        Path out = tmp.resolve("runs/r");
        CliRun r = CliRun.run("train", "--config", "configs/demo/bundle.yaml", "--skill_init", bad.toString(), "--out_root", out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("env.skill_init: " + bad.toAbsolutePath() + "/SKILL.md: frontmatter name \"House-Rules\" is not lower-case"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out), "nothing written");
        CliRun delivery = CliRun.run("train", "--config", "configs/demo/bundle.yaml", "--skill_delivery", "native", "--out_root", out.toString());
        assertEquals(2, delivery.code(), delivery.err());
        assertTrue(delivery.err().contains("env.skill_delivery: \"native\" installs the skill under .claude/skills/ and needs target backend claude_code_exec"), delivery.err());
        CliRun eval = CliRun.run("eval", "--config", "configs/demo/bundle.yaml", "--skill", bad.toString(), "--out_root", out.toString());
        assertEquals(2, eval.code(), eval.err());
        assertTrue(eval.err().contains("--skill: " + bad.toAbsolutePath() + "/SKILL.md: frontmatter name \"House-Rules\""), eval.err());
        CliRun unknown = CliRun.run("train", "--config", "configs/demo/bundle.yaml", "--skill_delivery", "inline", "--out_root", out.toString());
        assertEquals(2, unknown.code(), unknown.err());
        assertFalse(Files.exists(out), "nothing written");
    }
}
