package io.skillopt4j.train;

import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.AtomicFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class StepBufferTest {
    @TempDir Path tmp;

    @Test
    void groupsFailuresByReasonPrefixAndLabelsThemWithAnalystDescriptions() {
        AtomicFiles.writeJson(tmp.resolve("patches/minibatch_fail_000.json"),
                Map.of("failure_summary", List.of(Map.of("failure_type", "format", "description", "bad format"))));
        AtomicFiles.writeString(tmp.resolve("patches/minibatch_fail_001.json"), "{broken");
        List<RolloutResult> rs = List.of(
                new RolloutResult("a", 0, 0, Map.of("fail_reason", "format: x")),
                new RolloutResult("b", 0, 0, Map.of("fail_reason", "timeout")),
                new RolloutResult("c", 0, 0, Map.of("fail_reason", "format: y")),
                new RolloutResult("d", 1, 1, Map.of()));
        Map<String, Object> ranked = Map.of("edits", List.of(Map.of("op", "append", "content", "- x", "support_count", 2)));
        Map<String, Object> e = StepBuffer.entry(3, "reject", rs, tmp, ranked, UpdateMode.PATCH, 0.5, 0.25);
        assertEquals(List.of("step", "action", "n_total", "n_fail", "failure_patterns", "score_before", "score_after", "rejected_edits"),
                List.copyOf(e.keySet()));
        List<?> patterns = (List<?>) e.get("failure_patterns");
        assertEquals(Map.of("pattern", "format: bad format", "count", 2, "task_ids", List.of("a", "c")), patterns.get(0));
        assertEquals("timeout", ((Map<?, ?>) patterns.get(1)).get("pattern"));

        StepBuffer b = new StepBuffer();
        assertEquals("", b.format());
        b.add(e);
        String text = b.format();
        assertTrue(text.startsWith("## Previous Steps in This Epoch\n"));
        assertTrue(text.contains("### Step 3 — REJECT (3/4 failed)\n  - \"format: bad format\" (×2, tasks: a, c)\n  - \"timeout\" (×1, tasks: b)\n"), text);
        assertTrue(text.contains("  Rejected edits (score 0.5 → 0.25):\n    1. [append] \"- x\"\n"), text);
    }
}
