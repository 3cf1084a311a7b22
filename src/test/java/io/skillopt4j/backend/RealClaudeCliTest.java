package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.Proc;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * claude_code_exec and claude_chat on the REAL Claude Code CLI (../shared/realcli/install.sh's pinned version) against
 * the loopback fake provider: skipped, with the reason, where the CLI or ../shared is absent. Each case is one or a few
 * CLI runs; the fake's fault injection gives the provider's 401 and 529.
 */
class RealClaudeCliTest {
    static final String SKILL = "## Answer Rules\n- Answer with the exact shortest span copied from the context, with no extra words.";
    static final String TASK = "## Context\n[DOC] Title: Alder Observatory. Fact: Marta Ilves. [DOC] Title: Hazel Archive. Fact: Tomas Reed.\n\n"
            + "## Question\nWho designed the Alder Observatory?\n\nWork in this workspace, then give your final answer inside <answer>...</answer>.";

    @TempDir static Path dir;
    static Path claude;
    static RealCli fake;

    @BeforeAll static void start() throws Exception {
        claude = RealCli.binary("claude");
        // the workspaces sit inside a git repository, as a user's run folder often does: Claude Code keys its auto
        // memory by the git root, so a memory folder for it would show up in sessionFiles below
        Files.createDirectories(dir.resolve(".git"));
        fake = RealCli.start(dir.resolve("fake"));
    }

    @AfterAll static void stop() { if (fake != null) fake.close(); }

    @BeforeEach void heal() throws Exception { fake.fail("", ""); }

    static ClaudeCodeExecAgent.Builder agent() {
        return ClaudeCodeExecAgent.builder().path(claude.toString()).env(fake.env(claude)).backoff(Backoff.NONE).timeout(Duration.ofSeconds(60));
    }

    static ExecTask task(String id, String prompt) {
        return new ExecTask(id, prompt, SKILL, dir.resolve("runs").resolve(id).resolve("ws"), dir.resolve("runs").resolve(id),
                Duration.ofSeconds(90), null);
    }

    @Test void happyPathAnswersFromTheSkillTracesTheToolCallsAndReportsCostLeavingNoSessionFiles() throws Exception {
        int before = fake.requests().size();
        ClaudeCodeExecAgent a = agent().build();
        ExecResult r = a.run(task("happy", TASK));

        assertTrue(r.ok(), r.error());
        assertEquals("Marta Ilves", r.answer());
        assertTrue(r.trace().stream().anyMatch(s -> s.kind() == TraceStep.Kind.TOOL_CALL && s.tool().equals("Bash")), r.trace().toString());
        assertTrue(r.trace().stream().anyMatch(s -> s.kind() == TraceStep.Kind.TOOL_RESULT && s.text().contains("Alder Observatory")), r.trace().toString());
        assertTrue(r.usage().promptTokens() > 0, r.usage().toString());
        assertTrue(r.reportedUsd() != null && r.reportedUsd() > 0, "Claude Code's total_cost_usd");
        assertEquals(2, fake.requests().size() - before, "one tool round trip, no retries");
        String summary = Files.readString(dir.resolve("runs/happy/claude_trace_summary.txt"));
        assertTrue(summary.contains("- errors: none"), summary);
        assertEquals(List.of(), fake.sessionFiles(), "--no-session-persistence, and the empty project folder removed");
    }

    /** A notebook's interrupt while the real CLI waits on a hanging provider: the CLI is killed and the call ends at once. */
    @Test void anInterruptKillsTheRunningCliAndEndsTheCall() throws Exception {
        fake.fail("hang", "/messages");
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = new Thread(() -> {
            try { agent().build().run(task("interrupted", TASK)); } catch (Throwable e) { thrown.set(e); }
        });
        t.start();
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (ProcessHandle.current().descendants().noneMatch(p -> p.info().command().orElse("").contains("claude") || p.info().commandLine().orElse("").contains("claude"))
                && System.nanoTime() < until) Thread.sleep(50);
        Thread.sleep(1000); // the CLI is waiting on the provider
        long t0 = System.nanoTime();
        t.interrupt();
        t.join(Duration.ofSeconds(15).toMillis());
        assertFalse(t.isAlive(), "the interrupted call returned");
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos());
        assertTrue(thrown.get() != null, "an interrupted call is no answer");
        Thread.sleep(500);
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse("?")).filter(c -> c.contains("claude")).toList(), "no CLI left running");
    }

    @Test void asRootItRunsOutOfTheBoxAndBypassPermissionsIsRefusedInOneLineSayingWhatToSet() {
        Assumptions.assumeTrue(Proc.isRoot(), "not running as root");
        assertFalse(fake.env(claude).containsKey("IS_SANDBOX"));
        ClaudeCodeExecAgent a = agent().build();
        assertEquals("dontAsk", a.permissionMode());
        assertTrue(a.run(task("root", TASK)).ok());

        ClaudeCodeExecAgent bypass = agent().permissionMode("bypassPermissions").build();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> bypass.run(task("root-bypass", TASK)));
        assertTrue(e.getMessage().startsWith("claude_code_exec: Claude Code refuses --permission-mode bypassPermissions as root")
                && e.getMessage().contains("IS_SANDBOX=1"), e.getMessage());
    }

    @Test void aBadKeyFailsOnTheFirstAttemptWithOneLineNamingTheCause() throws Exception {
        fake.fail("401", "/messages");
        int before = fake.requests().size();
        long t0 = System.nanoTime();

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> agent().build().run(task("k401", TASK)));

        assertTrue(e.getMessage().startsWith("claude_code_exec: the Claude API answered 401 (invalid API key)"), e.getMessage());
        assertEquals(401, e.status());
        assertEquals(1, fake.requests().size() - before, "no retry of ours, none of Claude Code's (CLAUDE_CODE_MAX_RETRIES=0)");
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).toSeconds() < 30, "not Claude Code's minutes of retries");
    }

    @Test void anOverloadedProviderIsRetriedThenARetriableFailure() throws Exception {
        fake.fail("529", "/messages");
        int before = fake.requests().size();

        BackendException e = assertThrows(BackendException.Retriable.class, () -> agent().build().run(task("k529", TASK)));

        assertTrue(e.getMessage().startsWith("claude_code_exec: failed after 3 attempts: claude_code_exec: the Claude API answered 529 (overloaded)"), e.getMessage());
        assertEquals(1 + AbstractExecAgent.DEFAULT_FAILURE_RETRIES, fake.requests().size() - before);
        assertTrue(Files.readString(dir.resolve("runs/k529/claude_raw.txt")).contains("CLI ATTEMPT 3"), "every attempt's output is kept");
    }

    @Test void aPromptOf200KiBGoesThrough() throws Exception {
        String big = TASK.replace("## Question", "## Notes\n" + "Background line about nothing in particular.\n".repeat(200 * 1024 / 44) + "\n## Question");
        assertTrue(big.length() > 200 * 1024);
        int before = fake.requests().size();

        ExecResult r = agent().build().run(task("big", big));

        assertTrue(r.ok(), r.error());
        List<JsonNode> reqs = fake.requests();
        assertTrue(reqs.subList(before, reqs.size()).stream().anyMatch(n -> n.path("user_chars").asInt() > 200 * 1024), "the whole prompt reached the model");
    }

    @Test void claudeChatTakesJsonSchemaAndFailsABadKeyOnceWithTheClisOwnReason() throws Exception {
        ChatModel m = ClaudeCliChatModel.builder().binary(claude.toString()).env(fake.env(claude)).backoff(Backoff.NONE).build();
        ChatResponse r = m.chat(ChatRequest.builder().user("Say hi").tools(List.of(new ToolSpec("lookup", "look a word up", null))).build());
        assertNotNull(r.text(), "--json-schema is accepted (there is no --schema flag)");

        fake.fail("401", "/messages");
        int before = fake.requests().size();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(ChatRequest.builder().user("x").retries(5).build()));
        assertTrue(e.getMessage().contains("401 (invalid API key)"), e.getMessage());
        assertEquals(1, fake.requests().size() - before);
        assertEquals(List.of(), fake.sessionFiles());
    }
}
