package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class CliChatModelsTest {
    @TempDir Path tmp;

    @Test void claudeChatRunsPrintModeWithPromptOnStdinAndSystemPromptFile() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_chat.json");
        UsageMeter meter = new UsageMeter();
        ChatModel m = ClaudeCliChatModel.builder().binary(cli.path()).meter(meter).role("optimizer").backoff(Backoff.NONE)
                .env(FakeCli.env(Map.of())).build();

        ChatResponse r = m.chat(ChatRequest.builder().system("Be terse.").user("Say ok").reasoningEffort("XHigh").stage("analyst").build());

        assertEquals("ok", r.text());
        assertEquals(Usage.of(2, 3), r.usage());
        List<String> argv = cli.argv(1);
        String tmpDir = argv.get(argv.indexOf("--add-dir") + 1);
        assertTrue(tmpDir.contains("skillopt_claude_"));
        assertEquals(List.of(cli.path(), "-p", "--output-format", "json", "--permission-mode", "dontAsk", "--add-dir", tmpDir,
                "--model", "claude-sonnet-4-6", "--setting-sources", "user,project", "--append-system-prompt-file",
                Path.of(tmpDir, "system_prompt.txt").toString(), "--effort", "xhigh", "--no-session-persistence"), argv);
        assertEquals("History:\n- User: Say ok\n\nAnswer the latest user request.", cli.stdin(1));
        assertEquals(tmpDir, cli.read("cwd.1").strip());
        assertFalse(Path.of(tmpDir).toFile().exists(), "temp dir is removed afterwards");
        assertEquals(1, meter.byRoleAndStage().get("optimizer/analyst").calls());
    }

    @Test void claudeChatAuthFailureIsNotRetriedAndAdvisesLogin() {
        FakeCli cli = FakeCli.install(tmp, "claude").file("stderr", "Invalid API key · Please run /login\n").file("exit", "1");
        ChatModel m = ClaudeCliChatModel.builder().binary(cli.path()).backoff(Backoff.NONE).env(FakeCli.env(Map.of())).build();

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(ChatRequest.builder().user("x").retries(3).build()));

        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().contains("claude auth login"), e.getMessage());
    }

    @Test void claudeChatWithToolsUsesSchemaAndReturnsToolCalls() {
        FakeCli cli = FakeCli.install(tmp, "claude").file("reply",
                "{\"type\":\"result\",\"is_error\":false,\"result\":\"\",\"structured_output\":{\"content\":\"calling\",\"tool_calls\":[{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":1}\"}]},\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}\n");
        ChatModel m = ClaudeCliChatModel.builder().binary(cli.path()).backoff(Backoff.NONE).env(FakeCli.env(Map.of())).build();

        ChatResponse r = m.chat(ChatRequest.builder().user("find").tools(List.of(new ToolSpec("lookup", "d", null))).toolChoice("required").build());

        assertEquals("calling", r.text());
        assertEquals(List.of(new ToolCall("claude_tool_0", "lookup", "{\"q\":1}")), r.toolCalls());
        assertTrue(cli.argv(1).contains("--json-schema") && !cli.argv(1).contains("--schema"), "Claude Code's flag is --json-schema");
        assertTrue(cli.stdin(1).startsWith("Available compatibility tools:") && cli.stdin(1).contains("You must request at least one tool call."));
    }

    @Test void codexChatSendsPromptOnStdinAndReadsUsageFromTheJsonl() {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex_chat.jsonl").file("last", "{\"a\": 1}\n");
        ChatModel m = CodexChatModel.builder().model("gpt-5.5").settings(new CodexSettings(cli.path(), null, null, null, false, true, null, null, 1))
                .backoff(Backoff.NONE).env(FakeCli.env(Map.of())).build();

        ChatResponse r = m.chat(ChatRequest.builder().system("SYS").user("Reply in JSON").jsonRequired(true).reasoningEffort("high").build());

        assertEquals("{\"a\": 1}", r.text());
        assertEquals(new Usage(50, 7, 57, 10), r.usage());
        List<String> argv = cli.argv(1);
        String tmpDir = argv.get(argv.indexOf("--cd") + 1);
        assertEquals(List.of(cli.path(), "exec", "--json", "--ephemeral", "-c", "approval_policy=\"never\"", "--sandbox", "workspace-write",
                "--skip-git-repo-check", "--cd", tmpDir, "--model", "gpt-5.5", "--output-last-message", Path.of(tmpDir, "last_message.txt").toString(),
                "-c", "sandbox_workspace_write.network_access=false", "-c", "web_search=\"live\"", "-c", "model_reasoning_effort=\"high\"", "-"), argv);
        assertTrue(cli.stdin(1).startsWith("SYS\n\nHistory:\n- User: Reply in JSON"));
    }

    @Test void claudeCodeExecServesTheOptimizerRoleAndRetriesNonJsonThenFailsClearly() {
        FakeCli cli = FakeCli.install(tmp, "claude").replay("claude_chat.json");
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "claude_code_exec", "target_backend", "claude_code_exec",
                "optimizer_model", "gpt-5.5", "claude_code_exec_path", cli.path(), "reasoning_effort", "high", "retry_backoff_base_ms", 0));

        ModelRoles roles = Backends.roles(cfg, FakeCli.env(Map.of()));

        assertEquals("claude_code_exec", roles.optimizer().backend());
        assertEquals("claude-sonnet-4-6", roles.optimizer().model());
        assertTrue(roles.targetAgent().isPresent());
        BackendException e = assertThrows(BackendException.NonRetriable.class,
                () -> roles.optimizer().chat(ChatRequest.builder().user("JSON please").jsonRequired(true).retries(2).stage("analyst").build()));
        assertTrue(e.getMessage().startsWith("claude_code_exec: reply is not the JSON object the request required (after 2 attempts): ok"), e.getMessage());
        assertEquals(2, cli.calls());
        assertTrue(cli.argv(1).containsAll(List.of("--effort", "high")));
        assertTrue(cli.env(1).contains("MAX_THINKING_TOKENS=16384"));
    }
}
