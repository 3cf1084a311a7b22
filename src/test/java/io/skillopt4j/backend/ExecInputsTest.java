package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Exec targets get images and data directories as SkillOpt hands them to each CLI (fake CLIs record argv). */
class ExecInputsTest {
    @TempDir Path tmp;

    private Path image;
    private Path data;

    private ExecTask task() throws Exception {
        image = Files.createDirectories(tmp.resolve("pages")).resolve("page 1.png");
        Files.write(image, new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        data = Files.createDirectories(tmp.resolve("corpus"));
        return new ExecTask("doc-1", "What is the total?", "Read the figure.", tmp.resolve("ws/doc-1"), tmp.resolve("pred/doc-1"),
                Duration.ofSeconds(20), null, List.of(image), List.of(data));
    }

    private static List<String> after(List<String> argv, String flag) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i + 1 < argv.size(); i++) if (argv.get(i).equals(flag)) out.add(argv.get(i + 1));
        return out;
    }

    @Test void theWorkspaceHoldsNumberedAttachmentsListedInAttachmentsMd() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex_exec.log").file("last", "<answer>4</answer>\n");
        CodexSettings s = new CodexSettings(cli.path(), "read-only", "", "", false, false, null, null, 1);
        ExecTask t = task();
        assertTrue(CodexExecAgent.builder().settings(s).env(FakeCli.env(Map.of())).build().run(t).ok());
        Path copied = t.workspace().resolve("attachments/01_page 1.png");
        assertArrayEquals(Files.readAllBytes(image), Files.readAllBytes(copied));
        String list = Files.readString(t.workspace().resolve("ATTACHMENTS.md"));
        assertTrue(list.startsWith("# Attachments\n") && list.contains("- `attachments/01_page 1.png` (source: `" + image.toAbsolutePath() + "`)"), list);
    }

    @Test void codexGetsEachImageAsDashI() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex_exec.log").file("last", "<answer>4</answer>\n");
        CodexSettings s = new CodexSettings(cli.path(), "read-only", "", "", false, false, null, null, 1);
        ExecTask t = task();
        CodexExecAgent.builder().model("gpt-5.5").settings(s).env(FakeCli.env(Map.of())).build().run(t);
        List<String> argv = cli.argv(1);
        assertEquals(List.of(image.toString()), after(argv, "-i"));
        assertTrue(argv.indexOf("-i") < argv.indexOf("--output-last-message"), "upstream's position: after -m, before the last-message file");
        assertFalse(argv.contains("--add-dir"), "upstream validates but does not pass data dirs to codex (its sandboxes read everywhere)");
    }

    @Test void claudeGetsDataDirsAndImageFoldersAsExtraAddDirs() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream.jsonl");
        ExecTask t = task();
        ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(t);
        assertEquals(List.of(t.workspace().toString(), data.toRealPath().toString(), image.getParent().toRealPath().toString()),
                after(cli.argv(1), "--add-dir"));
    }

    @Test void cursorAndCopilotGetTheValidatedAddDirsWithoutTheWorkspace() throws Exception {
        FakeCli cursor = FakeCli.install(tmp, "cursor-agent").replay("cursor_stream.jsonl");
        ExecTask t = task();
        CursorExecAgent.builder().path(cursor.path()).env(FakeCli.env(Map.of())).build().run(t);
        List<String> dirs = List.of(data.toRealPath().toString(), image.getParent().toRealPath().toString());
        assertEquals(dirs, after(cursor.argv(1), "--add-dir"));
        FakeCli copilot = FakeCli.install(tmp, "copilot").replay("copilot.jsonl");
        CopilotExecAgent.builder().path(copilot.path()).home(tmp.resolve("home").toString()).env(FakeCli.env(Map.of())).build().run(t);
        assertEquals(dirs, after(copilot.argv(1), "--add-dir"));
    }

    @Test void aMissingImageOrADeniedDataDirNeverReachesTheCli() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "cursor-agent").replay("cursor_stream.jsonl");
        CursorExecAgent agent = CursorExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build();
        ExecTask t = task();
        ExecTask missing = new ExecTask(t.id(), t.prompt(), t.skill(), t.workspace(), t.traceDir(), t.timeout(), null,
                List.of(tmp.resolve("nope.png")), List.of());
        assertThrows(UncheckedIOException.class, () -> agent.run(missing));
        ExecTask denied = new ExecTask(t.id(), t.prompt(), t.skill(), t.workspace(), t.traceDir(), t.timeout(), null,
                List.of(), List.of(Files.createDirectories(tmp.resolve("officeqa_split/test"))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> agent.run(denied));
        assertTrue(e.getMessage().startsWith("Refusing to expose denied data directory to exec backend"), e.getMessage());
        assertEquals(0, cli.calls());
    }

    @Test void aCliThatCannotTakeANeededInputIsAConfigErrorAtStart() {
        ClaudeCodeExecAgent noRead = ClaudeCodeExecAgent.builder().allowedTools(List.of("Bash")).build();
        ConfigException e = assertThrows(ConfigException.class, () -> noRead.requireInputs(true, false));
        assertTrue(e.getMessage().contains("cannot see this benchmark's images without the Read tool"), e.getMessage());
        noRead.requireInputs(false, true); // Bash can read the data directories
        assertThrows(ConfigException.class, () -> ClaudeCodeExecAgent.builder().allowedTools(List.of()).build().requireInputs(false, true));
        ClaudeCodeExecAgent.builder().build().requireInputs(true, true);
        CodexExecAgent.builder().build().requireInputs(true, true);
    }
}
