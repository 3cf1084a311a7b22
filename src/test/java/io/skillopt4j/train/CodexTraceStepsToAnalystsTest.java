package io.skillopt4j.train;

import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The steps codex_exec writes (codex_trace_steps.txt) reach the analysts' trajectories, under codex_trace_to_optimizer. */
class CodexTraceStepsToAnalystsTest {
    @TempDir Path tmp;

    @Test void codexStepsFileIsAnAnalystSectionWhenTheGateIsOpen() throws Exception {
        Path item = Files.createDirectories(tmp.resolve("item-1"));
        Files.writeString(item.resolve("conversation.json"), "[{\"type\": \"message\", \"turn\": 1, \"content\": \"<answer>x</answer>\"}]");
        Files.writeString(item.resolve("codex_trace_summary.txt"), "Codex Trace Summary\n- read SKILL.md: success\n");
        Files.writeString(item.resolve("codex_trace_steps.txt"), "[1] tool_call shell: cat task.md\n[2] tool_result shell (12 chars): ## Question\n");
        List<RolloutResult> rs = List.of(new RolloutResult("item-1", 0, 0.0, Map.of("question", "Q")));

        String open = new Trajectories(true, false).format(rs, tmp);
        assertTrue(open.contains("#### Codex Trace Summary\nCodex Trace Summary"), open);
        assertTrue(open.contains("#### Codex Trace Steps\n[1] tool_call shell: cat task.md\n[2] tool_result shell"), open);

        String closed = new Trajectories(false, false).format(rs, tmp);
        assertFalse(closed.contains("Codex Trace"), closed);
    }
}
