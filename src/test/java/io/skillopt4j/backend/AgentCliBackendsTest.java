package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * codex_exec, copilot_exec, copilot_chat and opencode_exec against a fake CLI that replays the real CLIs' streams
 * (captured from Codex 0.171.0, Copilot 1.0.102 and OpenCode 1.18.33): the argv each backend sends, the prompt on
 * stdin at any size, the trace steps and usage read from the events, and failures as typed errors, never answers.
 */
class AgentCliBackendsTest {
    /** Over Linux's 128 KiB cap on one argv string: only stdin carries it. */
    static final String BIG = "Who designed the Alder Observatory? " + "x".repeat(200 * 1024);

    @TempDir Path tmp;

    ExecTask task(String prompt) {
        return new ExecTask("item-1", prompt, "Always read task.md first.", tmp.resolve("pred/item-1/ws"), tmp.resolve("pred/item-1"),
                Duration.ofSeconds(30), null);
    }

    static CodexSettings codex(String path, String profile) { return new CodexSettings(path, null, profile, null, false, false, null, null, 1); }

    @Test void codexExecSendsThePromptOnStdinAndReadsStepsAndUsageFromJsonEvents() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex-0.171.0-json-exec.jsonl");
        ExecTask t = task(BIG);

        ExecResult r = CodexExecAgent.builder().model("gpt-4o").settings(codex(cli.path(), null)).env(FakeCli.env(Map.of())).build().run(t);

        assertTrue(r.ok(), r.error());
        assertEquals("Marta Ilves", r.answer(), "no last-message file: the last agent_message is the answer");
        Path ws = t.workspace();
        assertEquals(List.of(cli.path(), "exec", "--json", "--ephemeral", "--skip-git-repo-check", "--color", "never", "-C", ws.toString(),
                "-c", "model_reasoning_effort=\"none\"", "--sandbox", "workspace-write", "-c", "approval_policy=\"never\"",
                "-c", "sandbox_workspace_write.network_access=false", "-c", "web_search=\"disabled\"", "-m", "gpt-4o",
                "--output-last-message", ws.resolve("codex_last_message.txt").toString(), "-"), cli.argv(1));
        assertEquals(BIG, cli.stdin(1));
        assertEquals(new Usage(10288, 125, 10413, 0, 0), r.usage());
        assertEquals(List.of(TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), r.trace().stream().map(TraceStep::kind).toList());
        Path pred = tmp.resolve("pred/item-1");
        String steps = Files.readString(pred.resolve("codex_trace_steps.txt"));
        assertTrue(steps.startsWith("[1] tool_call shell: /bin/bash -lc 'cat task.md .agents/skills/skillopt-target/SKILL.md'"), steps);
        String summary = Files.readString(pred.resolve("codex_trace_summary.txt"));
        assertTrue(summary.contains("- read task.md: success") && summary.contains("- read SKILL.md: success")
                && summary.contains("- tokens used: 10413") && summary.contains("- shell/tool errors: none"), summary);
    }

    @Test void codexExec401FailsOnTheFirstAttemptAsANonRetriableErrorNamingTheCause() {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex-0.171.0-json-401.jsonl").file("exit", "1");

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> CodexExecAgent.builder()
                .settings(codex(cli.path(), null)).env(FakeCli.env(Map.of())).build().run(task("Q")));

        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().startsWith("codex_exec: the Codex model provider's API answered 401 (invalid API key): "), e.getMessage());
        assertTrue(e.getMessage().contains("Incorrect API key provided"), e.getMessage());
        assertTrue(Files.isRegularFile(tmp.resolve("pred/item-1/codex_raw.txt")), "the partial trace is kept");
    }

    @Test void codexExecTimeoutIsRetriableAndKillsTheProcessTree() {
        FakeCli cli = FakeCli.install(tmp, "codex").file("sleep", "30");
        ExecTask t = new ExecTask("slow", "Q", "", tmp.resolve("ws"), tmp.resolve("tr"), null, null);

        BackendException e = assertThrows(BackendException.Retriable.class, () -> CodexExecAgent.builder().settings(codex(cli.path(), null))
                .timeout(Duration.ofMillis(1500)).failureRetries(0).env(FakeCli.env(Map.of())).build().run(t));

        assertTrue(e.getMessage().contains("timed out after 1.5 s"), e.getMessage());
        assertEquals(1, cli.calls());
        assertTrue(ProcessHandle.current().descendants().noneMatch(p -> p.info().commandLine().orElse("").contains("sleep 30")));
    }

    @Test void codexProfilesFollowCodex0171() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex-0.171.0-json-exec.jsonl");
        Path home = Files.createDirectories(tmp.resolve("codex-home"));
        Map<String, String> env = FakeCli.env(Map.of("CODEX_HOME", home.toString()));

        ConfigException missing = assertThrows(ConfigException.class, () -> CodexExecAgent.builder().settings(codex(cli.path(), "fast")).env(env).build());
        assertTrue(missing.getMessage().contains(home.resolve("fast.config.toml") + " does not exist"), missing.getMessage());
        Files.writeString(home.resolve("fast.config.toml"), "model = \"gpt-4o\"\n");
        Files.writeString(home.resolve("config.toml"), "model = \"gpt-5\"\n[profiles.fast]\nmodel = \"o3\"\n");
        ConfigException legacy = assertThrows(ConfigException.class, () -> CodexChatModel.builder().settings(codex(cli.path(), "fast")).env(env).build());
        assertTrue(legacy.getMessage().contains("legacy [profiles.*] table"), legacy.getMessage());
        assertEquals(0, cli.calls(), "refused before any call");

        Files.writeString(home.resolve("config.toml"), "model = \"gpt-5\"\n[profiles.other]\nmodel = \"o3\"\n");
        ExecResult r = CodexExecAgent.builder().settings(codex(cli.path(), "fast")).env(env).build().run(task("Q"));
        assertTrue(r.ok(), r.error());
        List<String> argv = cli.argv(1);
        assertEquals("fast", argv.get(argv.indexOf("-p") + 1));
    }

    @Test void codexChatHasATimeoutAndTypedFailures() {
        FakeCli cli = FakeCli.install(tmp, "codex").replay("codex-0.171.0-json-401.jsonl").file("exit", "1");
        ChatModel m = CodexChatModel.builder().settings(codex(cli.path(), null)).backoff(Backoff.NONE).env(FakeCli.env(Map.of())).build();

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(ChatRequest.of("SYS", BIG)));
        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().contains("answered 401"), e.getMessage());
        assertTrue(cli.stdin(1).contains(BIG));

        FakeCli slow = FakeCli.install(tmp.resolve("slow"), "codex").file("sleep", "30");
        ChatModel hangs = CodexChatModel.builder().settings(codex(slow.path(), null)).backoff(Backoff.NONE).httpAttempts(1)
                .timeout(Duration.ofMillis(1500)).env(FakeCli.env(Map.of())).build();
        BackendException t = assertThrows(BackendException.Retriable.class, () -> hangs.chat(ChatRequest.of("SYS", "hi")));
        assertTrue(t.getMessage().contains("timed out after 1.5 s"), t.getMessage());
    }

    @Test void copilotExecReadsStdinKeepsNoSessionAndReportsUsageAsNotReported() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "copilot").replay("copilot-1.0.102-byok-json.jsonl");
        Map<String, String> env = FakeCli.env(Map.of("COPILOT_ALLOW_ALL", "1", "COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9/v1"));
        ExecTask t = task(BIG);

        ExecResult r = CopilotExecAgent.builder().path(cli.path()).env(env).build().run(t);

        assertTrue(r.ok(), r.error());
        assertEquals("Marta Ilves", r.answer());
        List<String> argv = cli.argv(1);
        assertEquals(List.of(cli.path(), "--output-format", "json", "--stream", "off", "--no-color", "--log-level", "none", "-C", t.workspace().toString(),
                "--disable-builtin-mcps", "--no-custom-instructions", "--session-id"), argv.subList(0, 13));
        assertEquals("--log-dir", argv.get(14));
        assertFalse(argv.contains("--allow-all-tools"), "read-only runs keep the approval gate");
        assertTrue(cli.stdin(1).startsWith("You are working in a prepared workspace.") && cli.stdin(1).endsWith(BIG));
        String home = cli.env(1).lines().filter(l -> l.startsWith("COPILOT_HOME=")).findFirst().orElseThrow().substring(13);
        assertFalse(Files.exists(Path.of(home)), "a BYOK call's temporary COPILOT_HOME is removed");
        assertFalse(Files.exists(Path.of(argv.get(15))), "and its log folder");
        assertEquals(Usage.ZERO, r.usage());
        assertTrue(Files.readString(tmp.resolve("pred/item-1/copilot_trace_summary.txt")).contains("- usage: not reported by the Copilot CLI"));
    }

    @Test void copilotExecWithAStoredLoginUsesThatHomeAndRemovesOnlyItsOwnSession() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("copilot-home"));
        Path other = Files.createDirectories(home.resolve("session-state/older-session"));
        FakeCli cli = FakeCli.install(tmp, "copilot").replay("copilot-1.0.102-byok-json.jsonl");
        // the fake CLI writes its session folder as the real one does: session-state/<the id it was given>/events.jsonl
        cli.file("stderr", "");
        Path script = cli.exe;
        String body = Files.readString(script).replace("[ -f \"$DIR/sleep\" ]",
                "SID=\"\"; P=\"\"; for a in \"$@\"; do [ \"$P\" = --session-id ] && SID=\"$a\"; P=\"$a\"; done\n"
                        + "mkdir -p \"$COPILOT_HOME/session-state/$SID\" && echo '{}' > \"$COPILOT_HOME/session-state/$SID/events.jsonl\"\n[ -f \"$DIR/sleep\" ]");
        assertTrue(body.contains("session-state/$SID"), "the fake CLI now writes a session");
        Files.writeString(script, body);

        ExecResult r = CopilotExecAgent.builder().path(cli.path()).home(home.toString()).env(FakeCli.env(Map.of())).build().run(task("Q"));

        assertTrue(r.ok(), r.error());
        assertTrue(cli.env(1).contains("COPILOT_HOME=" + home));
        String id = cli.argv(1).get(cli.argv(1).indexOf("--session-id") + 1);
        assertTrue(cli.read("stderr").isEmpty());
        assertFalse(Files.exists(home.resolve("session-state").resolve(id)), "the call's own session is removed");
        assertTrue(Files.isDirectory(other), "another session is left alone");
    }

    @Test void copilot401IsNonRetriableNotAMissingStep() {
        FakeCli cli = FakeCli.install(tmp, "copilot").replay("copilot-1.0.102-byok-401.jsonl").file("exit", "1");

        BackendException e = assertThrows(BackendException.NonRetriable.class,
                () -> CopilotExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task("Q")));

        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().startsWith("copilot_exec: the model provider's API answered 401 (invalid API key): Authentication failed"), e.getMessage());
    }

    @Test void copilotChatOffersNoToolAndTakesThePromptOnStdin() {
        FakeCli cli = FakeCli.install(tmp, "copilot").replay("copilot.jsonl");
        UsageMeter meter = new UsageMeter();
        ChatModel m = CopilotChatModel.builder().binary(cli.path()).model("gpt-5").meter(meter).backoff(Backoff.NONE)
                .env(FakeCli.env(Map.of("COPILOT_ALLOW_ALL", "true"))).build();

        ChatResponse r = m.chat(ChatRequest.of("You are a judge.", BIG));

        assertEquals("<answer>E</answer>", r.text());
        List<String> argv = cli.argv(1);
        assertEquals(List.of(cli.path(), "--output-format", "json", "--stream", "off", "--no-color", "--log-level", "none", "--disable-builtin-mcps",
                "--no-custom-instructions", "--available-tools=skillopt_no_tools", "--session-id"), argv.subList(0, 12));
        assertEquals(List.of("--model", "gpt-5"), argv.subList(argv.size() - 2, argv.size()));
        assertEquals("You are a judge.\n\n---\n\n" + BIG, cli.stdin(1));
        assertEquals(Usage.ZERO, r.usage());
        assertEquals(1, meter.byStage().get("target").calls());
        assertThrows(BackendException.NonRetriable.class, () -> m.chat(ChatRequest.builder().user("x").tools(List.of(new ToolSpec("t", "", null))).build()));
        assertEquals(1, cli.calls(), "tools are refused before spawning");
    }

    @Test void openCodeExecRunsUpstreamsArgvAndEnvWithPermissionsDeniedButWhatARolloutNeeds() throws Exception {
        FakeCli cli = FakeCli.install(tmp, "opencode").replay("opencode-1.18.33-run-json.jsonl");
        Map<String, String> env = FakeCli.env(Map.of("OPENCODE_CONFIG_CONTENT", "{\"provider\":{\"fake\":{\"npm\":\"x\"}}}", "OPENCODE_DISABLE_MODELS_FETCH", "1"));
        ExecTask t = task(BIG);

        ExecResult r = OpenCodeExecAgent.builder().path(cli.path()).model("fake/fake-model").env(env).build().run(t);

        assertTrue(r.ok(), r.error());
        assertEquals("Marta Ilves", r.answer());
        assertEquals(List.of(cli.path(), "run", "--pure", "--format", "json", "--title", "skillopt", "--dir", t.workspace().toString(),
                "--model", "fake/fake-model"), cli.argv(1));
        assertTrue(cli.stdin(1).startsWith("You are working in a prepared workspace.") && cli.stdin(1).endsWith(BIG));
        Map<String, String> child = envOf(cli.env(1));
        for (String k : List.of("NO_COLOR", "OPENCODE_PURE", "OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_EXTERNAL_SKILLS",
                "OPENCODE_DISABLE_PROJECT_CONFIG", "OPENCODE_DISABLE_SHARE", "OPENCODE_DISABLE_TERMINAL_TITLE", "OPENCODE_DISABLE_MODELS_FETCH")) {
            assertEquals("1", child.get(k), k);
        }
        assertEquals(":memory:", child.get("OPENCODE_DB"), "no session database on disk");
        Map<String, Object> config = Json.parseObject(child.get("OPENCODE_CONFIG_CONTENT"));
        assertEquals(false, config.get("snapshot"));
        assertTrue(config.containsKey("provider"), "the caller's own config content is kept");
        assertEquals(Map.of("*", "deny", "read", "allow", "glob", "allow", "grep", "allow", "list", "allow", "bash", "allow",
                "external_directory", "deny"), config.get("permission"));
        assertEquals(config.get("permission"), Json.parseObject(child.get("OPENCODE_PERMISSION")));
        assertFalse(child.containsKey("AWS_SECRET_ACCESS_KEY"));
        assertEquals(new Usage(5171, 62, 5233, 0, 0), r.usage());
        assertTrue(Files.readString(tmp.resolve("pred/item-1/opencode_trace_steps.txt")).startsWith("[1] tool_call bash: "));
    }

    @Test void openCode401IsNonRetriable() {
        FakeCli cli = FakeCli.install(tmp, "opencode").replay("opencode-1.18.33-401.jsonl").file("exit", "1");

        BackendException e = assertThrows(BackendException.NonRetriable.class,
                () -> OpenCodeExecAgent.builder().path(cli.path()).env(FakeCli.env(Map.of())).build().run(task("Q")));

        assertEquals(1, cli.calls());
        assertTrue(e.getMessage().startsWith("opencode_exec: the model provider's API answered 401 (invalid API key): Incorrect API key"), e.getMessage());
    }

    @Test void openCodeServesTheOptimizerWithEveryPermissionDenied() {
        FakeCli cli = FakeCli.install(tmp, "opencode").replay("opencode-1.18.33-run-json.jsonl");
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "opencode_exec", "target_backend", "opencode_exec",
                "optimizer_model", "fake/fake-model", "opencode_exec_path", cli.path(), "retry_backoff_base_ms", 0));
        ModelRoles roles = Backends.roles(cfg, FakeCli.env(Map.of()));

        ChatResponse r = roles.optimizer().chat(ChatRequest.of("SYS", "Write the slow update."));

        assertTrue(r.text().endsWith("<answer>Marta Ilves</answer>"));
        assertEquals(Map.of("*", "deny"), Json.parseObject(envOf(cli.env(1)).get("OPENCODE_PERMISSION")));
        assertTrue(cli.stdin(1).startsWith("SYS\n\nHistory:\n- User: Write the slow update."));
        assertTrue(roles.targetAgent().orElseThrow().backend().equals("opencode_exec"));
        ConfigException bad = assertThrows(ConfigException.class, () -> Backends.roles(FlatConfig.of(Map.of("target_backend", "opencode_exec",
                "target_model", "gpt-4o", "optimizer_backend", "opencode_exec")), FakeCli.env(Map.of())));
        assertTrue(bad.getMessage().contains("provider/model"), bad.getMessage());
    }

    @Test void aBudgetRefusesCopilotWhichReportsNoUsage() {
        ConfigException e = assertThrows(ConfigException.class, () -> Backends.roles(FlatConfig.of(Map.of("target_backend", "copilot_exec",
                "optimizer_backend", "copilot_chat", "budget_usd", 5.0)), FakeCli.env(Map.of())));
        assertTrue(e.getMessage().contains("reports no token usage"), e.getMessage());
    }

    static Map<String, String> envOf(String envOutput) {
        Map<String, String> m = new java.util.HashMap<>();
        for (String l : envOutput.split("\n")) {
            int eq = l.indexOf('=');
            if (eq > 0) m.put(l.substring(0, eq), l.substring(eq + 1));
        }
        return m;
    }

    static long files(Path dir) throws Exception {
        if (!Files.exists(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }
}
