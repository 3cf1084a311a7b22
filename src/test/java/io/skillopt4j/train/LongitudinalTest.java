package io.skillopt4j.train;

import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LongitudinalTest {
    @TempDir Path tmp;

    private static RolloutResult r(String id, int hard, String reason) {
        return new RolloutResult(id, hard, hard, reason == null ? Map.of("predicted_answer", "a-" + id)
                : Map.of("predicted_answer", "a-" + id, "fail_reason", reason));
    }

    private List<Longitudinal.Pair> pairs() throws Exception {
        List<Item> items = List.of(new Item("imp", Map.of("question", "Q1")), new Item("reg", Map.of("question", "Q2")),
                new Item("per/1", Map.of("question", "Q3")), new Item("sta", Map.of("question", "Q4")),
                new Item("gone", Map.of("question", "Q5")));
        Path prev = tmp.resolve("prev"), curr = tmp.resolve("curr");
        Path conv = prev.resolve("predictions").resolve(RolloutRunner.safeId("per/1"));
        Files.createDirectories(conv);
        Files.writeString(conv.resolve("conversation.json"), Json.pretty(List.of(Map.of("role", "assistant", "content", "prev says X"))));
        List<RolloutResult> p = List.of(r("imp", 0, "wrong"), r("reg", 1, ""), r("per/1", 0, "EM=0: x"), r("sta", 1, ""), r("gone", 0, "no"));
        List<RolloutResult> c = List.of(r("imp", 1, ""), r("reg", 0, "EM=0: y"), r("per/1", 0, "EM=0: z"), r("sta", 1, ""));
        return Longitudinal.pairs(items, p, c, prev, curr);
    }

    @Test
    void comparisonStartsWithTheSummaryBlockSkillOptWrites() throws Exception {
        String text = Longitudinal.comparison(pairs());
        assertTrue(text.startsWith("## Longitudinal Comparison Summary\nTotal samples: 5\n- Improved (wrong→right): 1\n"
                + "- Regressed (right→wrong): 1\n- Persistent failures (wrong→wrong): 2\n- Stable successes (right→right): 1\n"), text);
        assertTrue(text.indexOf("### Regressions") < text.indexOf("### Persistent") && text.indexOf("### Persistent") < text.indexOf("### Improvements")
                && text.indexOf("### Improvements") < text.indexOf("### Stable"), text);
        assertTrue(text.contains("- Current fail reason: EM=0: y"), text);
        assertTrue(text.contains("- Previous fail reason: wrong"), text);
        assertTrue(text.contains("PASS (soft=1.00) — answer: a-sta"), text);
    }

    @Test
    void emptyCategoriesSayNoneAndNothingIsCapped() {
        String text = Longitudinal.comparison(List.of());
        assertTrue(text.contains("Total samples: 0\n- Improved (wrong→right): 0"), text);
        assertTrue(text.contains("### Stable Successes (right→right)\n(none)"), text);
    }

    @Test
    void trajectoriesAreReadUnderTheSafeIdAndMissingOnesAreNamed() throws Exception {
        List<Longitudinal.Pair> ps = pairs();
        Longitudinal.Pair per = ps.get(2);
        assertTrue(per.prevTrajectory().contains("prev says X"), per.prevTrajectory());
        assertEquals("(trajectory not available)", per.currTrajectory());
        String text = Longitudinal.comparison(ps);
        assertTrue(text.contains("prev says X"), text);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aMissingResultIsAFailureWithNoReasonAndAnswerNa() throws Exception {
        Map<String, Object> gone = pairs().get(4).json();
        Map<String, Object> curr = (Map<String, Object>) gone.get("curr");
        assertEquals("persistent_fail", gone.get("category"));
        assertEquals(Map.of("hard", 0, "soft", 0.0, "predicted_answer", "N/A", "fail_reason", ""), curr);
    }
}
