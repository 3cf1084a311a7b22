package io.skillopt4j.backend.internal;

import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.TraceSteps;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The Codex, Copilot and OpenCode stream parsers on the real CLIs' output: the streams captured in
 * ../shared/realcli/streams (skipped when that folder is absent) and one OpenCode 401 stream captured the same way
 * and kept in the test resources.
 */
class AgentStreamsTest {
    static String stream(String name) throws IOException {
        Path f = Path.of("").toAbsolutePath().resolve("../shared/realcli/streams").normalize().resolve(name);
        Assumptions.assumeTrue(Files.isRegularFile(f), "needs ../shared/realcli/streams/" + name + " (the shared real-CLI captures)");
        return Files.readString(f, StandardCharsets.UTF_8);
    }

    static String resource(String name) throws IOException {
        try (InputStream in = AgentStreamsTest.class.getResourceAsStream("/fakecli/replays/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<TraceStep.Kind> kinds(ParsedTrace t) { return t.steps().stream().map(TraceStep::kind).toList(); }

    @Test void codexJsonExecGivesShellStepsAnswerAndTheTurnsUsage() throws IOException {
        ParsedTrace t = CodexStream.parse(stream("codex-0.171.0-json-exec.jsonl"));

        assertFalse(t.isError(), t.error());
        assertTrue(t.terminal());
        assertEquals(List.of(TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), kinds(t));
        assertEquals("shell", t.steps().get(0).tool());
        assertTrue(t.steps().get(0).text().contains("cat task.md .agents/skills/skillopt-target/SKILL.md"));
        assertTrue(t.finalText().endsWith("<answer>Marta Ilves</answer>"), t.finalText());
        assertEquals(10288, t.usage().promptTokens());
        assertEquals(125, t.usage().completionTokens());
        assertEquals("true", t.meta().get("usage_reported"));
        // the item error of this stream is Codex's warning about model metadata, not a failure
        assertTrue(t.meta().get("warnings").contains("Model metadata"), t.meta().toString());
        String formatted = TraceSteps.format(t.steps(), TraceSteps.DEFAULT_MAX_CHARS);
        assertTrue(formatted.startsWith("[1] tool_call shell: /bin/bash -lc 'cat task.md"), formatted);
    }

    @Test void codex401IsAnErrorNamingTheStatusAndTheProvidersMessage() throws IOException {
        ParsedTrace t = CodexStream.parse(stream("codex-0.171.0-json-401.jsonl"));

        assertTrue(t.isError());
        assertTrue(t.terminal(), "turn.failed ends the turn");
        assertEquals("401", t.meta().get("error_status"));
        assertTrue(t.error().contains("Incorrect API key provided"), t.error());
        assertEquals("1", t.meta().get("retries"));
        assertEquals("", t.finalText());
    }

    @Test void codexUnreachableProviderIsAnErrorWithoutAStatus() throws IOException {
        ParsedTrace t = CodexStream.parse(stream("codex-0.171.0-json-unreachable-provider.jsonl"));

        assertTrue(t.isError());
        assertFalse(t.terminal(), "Codex was still reconnecting when it was stopped");
        assertNull(t.meta().get("error_status"));
        assertTrue(t.error().contains("Connection failed"), t.error());
        assertEquals("10", t.meta().get("retries"));
    }

    @Test void codexFailedCommandKeepsItsExitCodeInTheResult() {
        String raw = "{\"type\":\"item.completed\",\"item\":{\"id\":\"i1\",\"type\":\"command_execution\",\"command\":\"cat nope.md\","
                + "\"aggregated_output\":\"cat: nope.md: No such file or directory\\n\",\"exit_code\":1,\"status\":\"failed\"}}\n"
                + "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":5,\"cached_input_tokens\":2,\"cache_write_input_tokens\":1,\"output_tokens\":3}}\n";
        ParsedTrace t = CodexStream.parse(raw);

        assertFalse(t.isError());
        assertEquals("exit 1: cat: nope.md: No such file or directory\n", t.steps().get(1).text());
        assertEquals("1", t.meta().get("failed_commands"));
        assertEquals(2, t.usage().cachedTokens());
        assertEquals(1, t.usage().cacheWriteTokens());
    }

    @Test void codexTextLogStillParses() throws IOException {
        ParsedTrace t = CodexStream.parse(stream("codex-0.171.0-exec-text-stdout.txt") + "\n" + stream("codex-0.171.0-exec-text-stderr.txt"));

        assertEquals(List.of(TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), kinds(t));
        assertEquals(10701, t.usage().totalTokens());
    }

    @Test void copilotByokStreamGivesToolStepsAnswerAndSaysUsageIsNotReported() throws IOException {
        ParsedTrace t = CopilotStream.parse(stream("copilot-1.0.102-byok-json.jsonl"));

        assertFalse(t.isError(), t.error());
        assertTrue(t.terminal());
        assertEquals(List.of(TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), kinds(t));
        assertEquals("bash", t.steps().get(0).tool());
        assertTrue(t.finalText().endsWith("<answer>Marta Ilves</answer>"));
        assertEquals("c7ff76f1-eaa9-4e18-a964-ac57a42cb126", t.meta().get("session_id"), "session.start is gone; result carries the id");
        assertEquals("0", t.meta().get("exit_code"));
        assertEquals("false", t.meta().get("usage_reported"));
    }

    @Test void copilot401IsAnAuthenticationErrorNotAMissingStep() throws IOException {
        ParsedTrace t = CopilotStream.parse(stream("copilot-1.0.102-byok-401.jsonl"));

        assertTrue(t.isError());
        assertEquals("401", t.meta().get("error_status"));
        assertEquals("authentication", t.meta().get("error_type"));
        assertEquals("1", t.meta().get("exit_code"));
        assertEquals("3", t.meta().get("failed_model_calls"));
        assertTrue(t.error().startsWith("Authentication failed with provider"), t.error());
        assertFalse(t.error().contains("\n"));
    }

    @Test void openCodeRunGivesToolStepsAnswerAndStepUsage() throws IOException {
        ParsedTrace t = OpenCodeStream.parse(stream("opencode-1.18.33-run-json.jsonl"));

        assertFalse(t.isError(), t.error());
        assertTrue(t.terminal());
        assertEquals(List.of(TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), kinds(t));
        assertEquals("bash", t.steps().get(0).tool());
        assertTrue(t.steps().get(0).text().contains("cat task.md"));
        assertTrue(t.steps().get(1).text().startsWith("## Context"));
        assertEquals("The question asks about the Alder Observatory. I checked the passages.\n<answer>Marta Ilves</answer>", t.finalText());
        assertEquals(2523 + 2648, t.usage().promptTokens());
        assertEquals(37 + 25, t.usage().completionTokens());
        assertNull(t.meta().get("total_cost_usd"), "OpenCode priced this model at 0: the price table decides");
        assertEquals("stop", t.meta().get("finish_reason"));
        assertEquals(t.steps(), TraceSteps.parse("opencode", stream("opencode-1.18.33-run-json.jsonl")).steps(), "traces show --format opencode");
    }

    @Test void openCode401IsANonRetryableApiError() throws IOException {
        ParsedTrace t = OpenCodeStream.parse(resource("opencode-1.18.33-401.jsonl"));

        assertTrue(t.isError());
        assertFalse(t.terminal());
        assertEquals("401", t.meta().get("error_status"));
        assertEquals("APIError", t.meta().get("error_name"));
        assertEquals("false", t.meta().get("error_retryable"));
        assertTrue(t.error().startsWith("Incorrect API key provided"), t.error());
    }

    @Test void openCodeCostAndFailedToolsAreKept() {
        String raw = "{\"type\":\"tool_use\",\"part\":{\"tool\":\"read\",\"state\":{\"status\":\"error\",\"input\":{\"filePath\":\"x\"},\"error\":\"File not found: x\"}}}\n"
                + "{\"type\":\"step_finish\",\"part\":{\"reason\":\"stop\",\"tokens\":{\"input\":10,\"output\":4,\"reasoning\":2,\"cache\":{\"read\":3,\"write\":1}},\"cost\":0.0125}}\n";
        ParsedTrace t = OpenCodeStream.parse(raw);

        assertEquals("failed: File not found: x", t.steps().get(1).text());
        assertEquals(14, t.usage().promptTokens());
        assertEquals(6, t.usage().completionTokens());
        assertEquals(3, t.usage().cachedTokens());
        assertEquals(0.0125, Double.parseDouble(t.meta().get("total_cost_usd")), 1e-12);
    }
}
