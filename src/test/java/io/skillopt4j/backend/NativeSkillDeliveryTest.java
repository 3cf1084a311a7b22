package io.skillopt4j.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Native delivery (env.skill_delivery=native) through Claude Code: the bundle is installed under .claude/skills/NAME/,
 * no .agents/ copy is written, the Skill tool is offered and the prompt names no skill file.
 */
class NativeSkillDeliveryTest {
    @TempDir Path tmp;

    @Test
    void theBundleIsInstalledWhereClaudeCodeDiscoversSkillsAndThePromptDoesNotPointAtIt() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream.jsonl");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).model("claude-sonnet-4-6")
                .env(FakeCli.env(Map.of("ANTHROPIC_API_KEY", "sk-ant-planted-abcdefghijkl"))).build();
        String skillMd = "---\nname: house-rules\ndescription: House formats.\n---\n# Rules\nRead references/a.md.\n";
        ExecTask t = new ExecTask("item-1", "Solve it.", "", tmp.resolve("pred/item-1/ws"), tmp.resolve("pred/item-1"), Duration.ofSeconds(20),
                Map.of(".claude/skills/house-rules/SKILL.md", skillMd, ".claude/skills/house-rules/references/a.md", "- a\n"));
        assertTrue(AbstractExecAgent.nativeSkill(t));
        ExecResult r = agent.run(t);
        assertTrue(r.ok(), r.error());
        Path ws = t.workspace();
        assertEquals(skillMd, Files.readString(ws.resolve(".claude/skills/house-rules/SKILL.md")));
        assertEquals("- a\n", Files.readString(ws.resolve(".claude/skills/house-rules/references/a.md")));
        assertFalse(Files.exists(ws.resolve(".agents")), "no file copy to be told about");
        List<String> argv = cli.argv(1);
        assertEquals("Read,Bash,Skill", argv.get(argv.indexOf("--tools") + 1));
        assertEquals("Read,Bash,Skill", argv.get(argv.indexOf("--allowedTools") + 1));
        String prompt = cli.stdin(1); // the prompt goes on stdin, never on argv
        assertFalse(prompt.contains(".agents/skills") || prompt.contains("SKILL.md") || prompt.contains("Do not call a Skill tool"), prompt);
        assertTrue(prompt.startsWith("You are working in a prepared workspace."), prompt);
    }

    @Test
    void fileDeliveryKeepsSkillOptsWorkspaceAndPrompt() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream.jsonl");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build();
        ExecTask t = new ExecTask("item-1", "Solve it.", "# Rules\n", tmp.resolve("pred/item-1/ws"), tmp.resolve("pred/item-1"), Duration.ofSeconds(20),
                Map.of(".agents/skills/skillopt-target/references/a.md", "- a\n"));
        assertFalse(AbstractExecAgent.nativeSkill(t));
        agent.run(t);
        assertTrue(Files.isRegularFile(t.workspace().resolve(".agents/skills/skillopt-target/SKILL.md")));
        assertEquals("- a\n", Files.readString(t.workspace().resolve(".agents/skills/skillopt-target/references/a.md")));
        List<String> argv = cli.argv(1);
        assertEquals("Read,Bash", argv.get(argv.indexOf("--tools") + 1));
        assertTrue(cli.stdin(1).contains("Do not call a Skill tool"));
    }
}
