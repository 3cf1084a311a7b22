package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.ClaudeStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The streams the real Claude Code 2.1.328 printed against the loopback fake provider (../shared/realcli/streams,
 * copied under src/test/resources/fakecli/replays), parsed and replayed through the exec agent and the chat model.
 */
class ClaudeRealStreamsTest {
    @TempDir Path tmp;

    static ExecTask task(Path tmp, String prompt) {
        return new ExecTask("item-1", prompt, "Read task.md first.", tmp.resolve("pred/item-1/ws"), tmp.resolve("pred/item-1"),
                Duration.ofSeconds(30), null);
    }

    @Test void theExecStreamGivesStepsUsageCostAndASummaryWithoutErrors() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude-2.1.328-exec-stream-json.jsonl");
        ExecResult r = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task(tmp, "Q"));

        assertTrue(r.ok(), r.error());
        assertEquals("Marta Ilves", r.answer());
        assertEquals(List.of(TraceStep.Kind.TEXT, TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT),
                r.trace().stream().map(TraceStep::kind).toList());
        assertTrue(r.usage().promptTokens() > 0 && r.usage().completionTokens() > 0, r.usage().toString());
        assertNotNull(r.reportedUsd(), "the result event's total_cost_usd");
        // every line of a real stream holds "is_error":false; the summary must not call that an error
        String summary = Files.readString(tmp.resolve("pred/item-1/claude_trace_summary.txt"));
        assertTrue(summary.contains("- errors: none"), summary);
    }

    @Test void theOneLineStreamIsAnAnswer() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude-2.1.328-hi-stream-json.jsonl");
        ExecResult r = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task(tmp, "Say hi"));
        assertTrue(r.ok(), r.error());
        assertFalse(r.finalMessage().isBlank());
    }

    @Test void aFailedToolCallIsTraceNotAFailure() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude-2.1.328-tool-error-stream-json.jsonl");
        ExecResult r = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task(tmp, "Q"));

        assertTrue(r.ok(), r.error());
        assertEquals("unknown", r.answer());
        TraceStep result = r.trace().stream().filter(s -> s.kind() == TraceStep.Kind.TOOL_RESULT).findFirst().orElseThrow();
        assertTrue(result.text().startsWith("[error] Exit code 1"), result.text());
        String summary = Files.readString(tmp.resolve("pred/item-1/claude_trace_summary.txt"));
        assertTrue(summary.contains("- errors: 1 failed tool call(s)"), summary);
    }

    @Test void theReal401StreamIsANonRetriableFailureNamingTheCauseNotAnAnswer() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude-2.1.328-401-stream-json.jsonl").file("exit", "1");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).backoff(Backoff.NONE).build();

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> agent.run(task(tmp, "Q")));

        assertEquals(1, cli.calls(), "a bad key fails on the first attempt");
        assertEquals(401, e.status());
        assertTrue(e.getMessage().startsWith("claude_code_exec: the Claude API answered 401 (invalid API key): Invalid API key"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        String summary = Files.readString(tmp.resolve("pred/item-1/claude_trace_summary.txt"));
        assertTrue(summary.contains("api status 401 authentication_error") && summary.contains("10 API retries (last status 401)"), summary);
        ParsedTrace t = ClaudeStream.parse(FakeCli.resource("claude-2.1.328-401-stream-json.jsonl"));
        assertTrue(t.steps().isEmpty(), "the synthetic error message is no text step: " + t.steps());
        assertEquals("api_error", t.meta().get("terminal_reason"));

        // the refused credentials fail the next item at once, without starting the CLI again
        BackendException again = assertThrows(BackendException.NonRetriable.class, () -> agent.run(task(tmp, "Q2")));
        assertEquals(e.getMessage(), again.getMessage());
        assertEquals(1, cli.calls());
    }

    @Test void anOverloadedResultIsRetriedThenThrownRetriable() {
        String overloaded = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,\"api_error_status\":529,"
                + "\"api_error_type\":\"overloaded_error\",\"terminal_reason\":\"api_error\",\"result\":\"API Error: 529 Overloaded.\","
                + "\"total_cost_usd\":0,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}\n";
        FakeCli cli = FakeCli.install(tmp, "claude").file("reply", overloaded).file("exit", "1");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).backoff(Backoff.NONE).build();

        BackendException e = assertThrows(BackendException.Retriable.class, () -> agent.run(task(tmp, "Q")));

        assertEquals(1 + AbstractExecAgent.DEFAULT_FAILURE_RETRIES, cli.calls());
        assertTrue(e.getMessage().startsWith("claude_code_exec: failed after 3 attempts: claude_code_exec: the Claude API answered 529 (overloaded)"), e.getMessage());
    }

    @Test void aHungAttemptIsKilledAtTheAttemptTimeoutKeptInTheTraceAndRetriedWithinTheItemsLimit() throws Exception {
        // call 1 prints its first event and hangs; call 2 replays the real stream
        Path exe = Files.createDirectories(tmp.resolve("hang")).resolve("claude");
        String stream = FakeCli.resource("claude-2.1.328-exec-stream-json.jsonl");
        Files.writeString(tmp.resolve("hang/stream.jsonl"), stream);
        Files.writeString(exe, "#!/usr/bin/env bash\ncat >/dev/null\nd=$(dirname \"$0\")\nn=$(( $(cat \"$d/count\" 2>/dev/null || echo 0) + 1 ))\n"
                + "echo $n >\"$d/count\"\nif [ $n = 1 ]; then head -1 \"$d/stream.jsonl\"; exec sleep 60; fi\ncat \"$d/stream.jsonl\"\n");
        assertTrue(exe.toFile().setExecutable(true));
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(exe.toString()).env(FakeCli.env(Map.of())).backoff(Backoff.NONE)
                .timeout(Duration.ofSeconds(3)).build();
        ExecTask t = new ExecTask("item-1", "Q", "", tmp.resolve("pred/item-1/ws"), tmp.resolve("pred/item-1"), Duration.ofSeconds(30), null);

        long t0 = System.nanoTime();
        ExecResult r = agent.run(t);

        assertTrue(r.ok(), r.error());
        assertEquals("Marta Ilves", r.answer());
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).toSeconds() < 25, "the first attempt was cut at its own timeout, not the item's");
        String raw = Files.readString(tmp.resolve("pred/item-1/claude_raw.txt"));
        assertTrue(raw.contains("CLI ATTEMPT 1 =====\n{\"type\":\"system\"") && raw.contains("CLI ATTEMPT 2"), "the killed attempt's output is kept");
    }

    @Test void aPromptOf200KiBGoesOnStdinNeverOnArgv() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude-2.1.328-exec-stream-json.jsonl");
        String big = "x".repeat(200 * 1024);
        ExecResult r = ClaudeCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task(tmp, big));
        assertTrue(r.ok(), r.error());
        assertTrue(cli.stdin(1).contains(big));
        assertTrue(cli.argv(1).stream().allMatch(a -> a.length() < 4096), "no prompt on argv");
    }

    @Test void asRootOutsideASandboxTheDefaultModeIsDontAskAndRootsRefusalSaysWhatToSet() {
        assertEquals("dontAsk", ClaudeCodeExecAgent.defaultPermissionMode(Map.of(), true));
        assertEquals("dontAsk", ClaudeCodeExecAgent.defaultPermissionMode(Map.of("IS_SANDBOX", "yes"), true), "Claude Code takes only IS_SANDBOX=1");
        assertEquals("bypassPermissions", ClaudeCodeExecAgent.defaultPermissionMode(Map.of("IS_SANDBOX", "1"), true));
        assertEquals("bypassPermissions", ClaudeCodeExecAgent.defaultPermissionMode(Map.of("CLAUDE_CODE_BUBBLEWRAP", "1"), true));
        assertEquals("bypassPermissions", ClaudeCodeExecAgent.defaultPermissionMode(Map.of(), false));

        FakeCli cli = FakeCli.install(tmp, "claude").file("exit", "1")
                .file("stderr", "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n");
        ClaudeCodeExecAgent agent = ClaudeCodeExecAgent.builder().path(cli.path()).permissionMode("bypassPermissions")
                .env(FakeCli.env(Map.of())).backoff(Backoff.NONE).build();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> agent.run(task(tmp, "Q")));
        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().contains("IS_SANDBOX=1") && e.getMessage().contains("dontAsk"), e.getMessage());
    }

    @Test void claudeChatKeepsTheClisOwnErrorAndDoesNotRetryABadKey() {
        String json = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,\"api_error_status\":401,"
                + "\"api_error_type\":\"authentication_error\",\"terminal_reason\":\"api_error\",\"result\":\"Invalid API key · Fix external API key\"}\n";
        FakeCli cli = FakeCli.install(tmp, "claude").file("reply", json).file("exit", "1");
        ChatModel m = ClaudeCliChatModel.builder().binary(cli.path()).backoff(Backoff.NONE).env(FakeCli.env(Map.of())).build();

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(ChatRequest.builder().user("x").retries(5).build()));

        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().contains("401 (invalid API key): Invalid API key · Fix external API key"), e.getMessage());
    }
}
