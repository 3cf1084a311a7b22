package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class TraceStepsTest {
    @TempDir Path tmp;

    @Test void claudeStreamBecomesTextToolCallAndCappedToolResultSteps() {
        ParsedTrace t = TraceSteps.parse("claude", FakeCli.resource("claude_stream.jsonl"));

        assertTrue(t.terminal());
        assertFalse(t.isError());
        assertEquals("The answer is <answer>B</answer>", t.finalText());
        assertEquals(2, t.skippedLines(), "one non-JSON banner and one unknown event");
        assertEquals("sess-1", t.meta().get("session_id"));
        TraceStep result = t.steps().get(2);
        assertEquals(TraceStep.Kind.TOOL_RESULT, result.kind());
        assertEquals(200, result.text().length());
        assertTrue(result.truncated());
        assertTrue(t.steps().stream().noneMatch(s -> s.text().contains("secret chain of thought")));
    }

    @Test void parsersTolerateKeyOrderCrlfUnknownEventsAndGarbage() {
        String raw = "garbage\r\n{\"result\":\"done\",\"usage\":{\"output_tokens\":1},\"type\":\"result\"}\r\n{\"type\":\"brand_new\"}\r\n{not json\r\n";
        ParsedTrace t = TraceSteps.parse("claude", raw);
        assertEquals("done", t.finalText());
        assertEquals(3, t.skippedLines());

        ParsedTrace empty = TraceSteps.parse("claude", "");
        assertFalse(empty.terminal());
        assertEquals("stream ended without a result event", empty.error());

        ParsedTrace codex = TraceSteps.parse("codex", FakeCli.resource("codex_chat.jsonl"));
        assertEquals("{\"a\": 1}", codex.finalText());
        assertEquals(new Usage(50, 7, 57, 10), codex.usage());
        assertEquals(List.of(TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT), codex.steps().stream().map(TraceStep::kind).toList());

        ParsedTrace copilot = TraceSteps.parse("copilot", FakeCli.resource("copilot.jsonl"));
        assertEquals("<answer>E</answer>", copilot.finalText());

        ParsedTrace cursorNoResult = TraceSteps.parse("cursor", "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}\n");
        assertFalse(cursorNoResult.terminal());
        assertEquals(1, cursorNoResult.steps().size());

        assertThrows(ConfigException.class, () -> TraceSteps.parse("gemini", ""));
    }

    @Test void codexTextLogBecomesExecAndTextSteps() {
        ParsedTrace t = TraceSteps.parse("codex", FakeCli.resource("codex_exec.log"));
        assertEquals("<answer>C</answer>", t.finalText());
        assertEquals("1234", t.meta().get("tokens_used"));
        assertEquals("bash -lc 'cat task.md'", t.steps().get(1).text());
        assertEquals(TraceStep.Kind.TOOL_CALL, t.steps().get(1).kind());
    }

    @Test void formatTruncatesTheWholeTraceWithAMarker() {
        List<TraceStep> steps = new ArrayList<>();
        for (int i = 0; i < 100; i++) steps.add(new TraceStep(TraceStep.Kind.TEXT, "", "step number " + i + "\nwith a second line", 30, false));

        String out = TraceSteps.format(steps, 500);

        assertEquals(500 + TraceSteps.TRUNCATION_MARKER.length(), out.length());
        assertTrue(out.endsWith("\n...[trace steps truncated]..."));
        assertTrue(out.startsWith("[1] text: step number 0 with a second line\n[2] text:"));
        assertEquals("[1] tool_result Bash (300 chars, truncated): x", TraceSteps.format(List.of(new TraceStep(TraceStep.Kind.TOOL_RESULT, "Bash", "x", 300, true)), 0));
    }

    @Test void analystSectionIsGatedPerTargetBackend() throws Exception {
        Files.writeString(tmp.resolve(TraceSteps.CLAUDE_STEPS_FILE), "[1] text: hello\n");
        Files.writeString(tmp.resolve(TraceSteps.CODEX_STEPS_FILE), "[1] tool_call exec: ls\n");

        assertEquals("#### Claude Trace Steps\n[1] text: hello", TraceSteps.analystSection(FlatConfig.empty(), "claude_code_exec", tmp).orElseThrow());
        assertTrue(TraceSteps.analystSection(FlatConfig.of(Map.of("claude_trace_to_optimizer", false)), "claude_code_exec", tmp).isEmpty());
        assertEquals("#### Codex Trace Steps\n[1] tool_call exec: ls", TraceSteps.analystSection(FlatConfig.of(Map.of("codex_trace_to_optimizer", true)), "codex_exec", tmp).orElseThrow());
        assertTrue(TraceSteps.analystSection(FlatConfig.of(Map.of("codex_trace_to_optimizer", "false")), "codex_exec", tmp).isEmpty());
        assertTrue(TraceSteps.analystSection(FlatConfig.empty(), "openai_chat", tmp).isEmpty());
        assertTrue(TraceSteps.analystSection(FlatConfig.empty(), "claude_code_exec", tmp.resolve("missing")).isEmpty());
    }
}
