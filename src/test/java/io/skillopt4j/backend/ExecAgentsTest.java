package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class ExecAgentsTest {
    @TempDir Path tmp;

    ExecTask task(String prompt) {
        return new ExecTask("item-1", prompt, "Always read task.md first.", tmp.resolve("pred/item-1/codex_exec"),
                tmp.resolve("pred/item-1"), Duration.ofSeconds(20), null);
    }

    static void assertUtf8(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                try {
                    StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(p)));
                } catch (CharacterCodingException e) {
                    fail(p + " is not valid UTF-8");
                }
            }
        }
    }

    @Test void claudeCodeExecRunsExactCommandParsesStepsAndPersistsTraces() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream.jsonl");
        UsageMeter meter = new UsageMeter();
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).model("claude-sonnet-4-6").effort("xhigh")
                .meter(meter).env(FakeCli.env(Map.of("ANTHROPIC_API_KEY", "sk-ant-planted-abcdefghijkl", "OPENAI_API_KEY", "sk-openai-planted-xyz123456"))).build();
        ExecTask t = task("Solve it. Use the skillopt-target skill.");

        ExecResult r = agent.run(t);

        assertTrue(r.ok(), r.error());
        assertEquals("B", r.answer());
        assertEquals("The answer is <answer>B</answer>", r.finalMessage());
        Path ws = t.workspace();
        assertTrue(Files.readString(ws.resolve(".agents/skills/skillopt-target/SKILL.md")).contains("## Dynamic Guidance\n\nAlways read task.md first."));
        assertEquals("Solve it. Use the skillopt-target skill.", Files.readString(ws.resolve("task.md")));
        List<String> argv = cli.argv(1);
        assertEquals(List.of(cli.path(), "-p", "--output-format", "stream-json", "--verbose", "--no-session-persistence",
                "--permission-mode", agent.permissionMode(), "--add-dir", ws.toString(), "--tools", "Read,Bash", "--allowedTools", "Read,Bash",
                "--model", "claude-sonnet-4-6", "--effort", "max", "--max-thinking-tokens", "16384"), argv);
        // the prompt goes on stdin, never on argv
        String prompt = cli.stdin(1);
        assertTrue(prompt.contains("Do not modify files") && prompt.contains("Read .agents/skills/skillopt-target/SKILL.md directly; do not call a Skill tool"), prompt);
        assertEquals(ws.toString(), cli.read("cwd.1").strip());
        String env = cli.env(1);
        assertTrue(env.contains("ANTHROPIC_API_KEY="));
        assertTrue(env.contains("CLAUDE_CODE_MAX_RETRIES=0"), "Claude Code's own retries are capped: the harness retries");
        assertTrue(env.contains("CLAUDE_CODE_DISABLE_AUTO_MEMORY=1"), "no notes from one rollout for the next");
        assertFalse(env.contains("sk-openai-planted") || env.contains("aws-planted") || env.contains("mm-planted"), "child env not scrubbed");
        // steps: init, thinking and the unknown event are dropped
        assertEquals(List.of(TraceStep.Kind.TEXT, TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TOOL_CALL,
                TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), r.trace().stream().map(TraceStep::kind).toList());
        TraceStep big = r.trace().get(2);
        assertEquals("Read", big.tool());
        assertEquals(200, big.text().length());
        assertEquals(600, big.chars());
        assertTrue(big.truncated());
        assertEquals("Short skill — café ✓", r.trace().get(4).text());
        assertEquals(new Usage(120, 30, 150, 20), r.usage());
        assertEquals(1, meter.byRoleAndStage().get("target/rollout").calls());
        Path pred = tmp.resolve("pred/item-1");
        String steps = Files.readString(pred.resolve("claude_trace_steps.txt"));
        assertTrue(steps.startsWith("[1] text: I will read the task first.\n[2] tool_call Read: {\"file_path\":\"task.md\"}\n[3] tool_result Read (600 chars, truncated): "), steps);
        assertFalse(steps.contains("secret chain of thought"));
        assertTrue(Files.readString(pred.resolve("claude_raw.txt")).startsWith("===== CLAUDE CLI ATTEMPT 1 =====\n"));
        assertTrue(Files.readString(pred.resolve("claude_trace_summary.txt")).contains("- final answer format: tagged"));
        assertUtf8(tmp);
    }

    @Test void claudeCodeExecIsChargedTheCostItsCliReports() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream.jsonl");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).model("claude-sonnet-4-6")
                .meter(new UsageMeter()).env(FakeCli.env(Map.of("ANTHROPIC_API_KEY", "sk-ant-planted-abcdefghijkl"))).build();
        CostLedger ledger = CostLedger.capped(PriceTable.defaults(), 1.0);
        ExecResult r = new BudgetedExecAgent(agent, ledger).run(task("Solve it."));
        assertTrue(r.ok(), r.error());
        assertEquals(0.0123, r.reportedUsd(), 1e-12, "total_cost_usd of the stream's result event");
        CostLedger.Entry e = ledger.entries().get(0);
        assertEquals("reported", e.pricing());
        assertEquals(0.0123, e.usd(), 1e-12);
        assertEquals(0.0123, ledger.spent(), 1e-12);
        assertEquals(0.0, ledger.reserved(), 1e-12, "the reservation is released when the run is charged");
    }

    @Test void claudeCodeExecRetriesAStreamWithoutResultThenReportsPartialTrace() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream_no_result.jsonl");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build();

        ExecResult r = agent.run(task("Q"));

        assertFalse(r.ok());
        assertEquals(2, cli.calls());
        assertTrue(cli.stdin(2).contains("previous run returned an empty final response"));
        assertTrue(r.error().contains("without a result event"), r.error());
        assertEquals(3, r.trace().size()); // text, tool_call, tool_result from the partial stream
    }

    @Test void claudeCodeExecFailsOnAnErrorFlaggedOnlyByIsError() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_stream_is_error.jsonl");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).backoff(Backoff.NONE).build();

        // a billing failure is a failed call, never an answer, and retrying cannot fix it
        io.skillopt4j.BackendException e = assertThrows(io.skillopt4j.BackendException.NonRetriable.class, () -> agent.run(task("Q")));
        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().contains("Credit balance is too low"), e.getMessage());
        assertTrue(Files.isRegularFile(tmp.resolve("pred/item-1/claude_raw.txt")), "the failed run's trace is kept");
    }

    @Test void cursorExecSendsPromptOnStdinAndPersistsASanitisedTrace() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "cursor-agent").replay("cursor_stream.jsonl");
        ExecTask t = task("Which letter?");

        ExecResult r = CursorExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of("CURSOR_API_KEY", "key_planted_cursor_123"))).build().run(t);

        assertTrue(r.ok(), r.error());
        assertEquals("D", r.answer());
        assertEquals(List.of(cli.path(), "-p", "--output-format", "stream-json", "--trust", "--workspace", t.workspace().toString(),
                "--sandbox", "enabled", "--mode", "ask", "--model", "composer-2.5"), cli.argv(1));
        assertTrue(cli.stdin(1).contains(".agents/skills/skillopt-target/SKILL.md") && cli.stdin(1).contains("Do not modify files"));
        String raw = Files.readString(tmp.resolve("pred/item-1/cursor_raw.txt"));
        assertTrue(raw.contains("[OMITTED NON-JSON OUTPUT]") && raw.contains("\"result\":\"[OMITTED]\""), raw);
        assertFalse(raw.contains("key_abcdefghijklmnop") || raw.contains("<answer>D") || raw.contains("Which letter?"), raw);
        String summary = Files.readString(tmp.resolve("pred/item-1/cursor_trace_summary.txt"));
        assertTrue(summary.contains("- tool calls: 1") && summary.contains("- session id: cur-1") && summary.contains("- duration ms: 987"), summary);
    }

    @Test void cursorExecDoesNotRetryAnErrorResultAndRefusesEditsWithoutSandbox() {
        FakeCli cli = FakeCli.install(tmp, "cursor-agent")
                .file("reply", "{\"type\":\"result\",\"subtype\":\"error\",\"is_error\":true,\"result\":\"bad token=abcdefghijklmn\"}\n");
        io.skillopt4j.BackendException e = assertThrows(io.skillopt4j.BackendException.class,
                () -> CursorExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task("Q")));
        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().contains("token=[REDACTED]"), e.getMessage());

        assertThrows(ConfigException.class, () -> CursorExecAgent.builder().path(cli.path()).sandbox("disabled").allowFileEdits(true).build());
        assertEquals(1, cli.calls());
    }
}
