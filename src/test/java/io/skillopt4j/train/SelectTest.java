package io.skillopt4j.train;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class SelectTest {
    private static Map<String, Object> merged(int n) {
        List<Object> edits = new ArrayList<>();
        for (int i = 0; i < n; i++) edits.add(Map.of("op", "append", "content", "e" + i, "support_count", i));
        return new java.util.LinkedHashMap<>(Map.of("reasoning", "m", "edits", edits));
    }

    private static List<Object> contents(Map<String, Object> p) {
        return ((List<?>) p.get("edits")).stream().map(e -> ((Map<?, ?>) e).get("content")).map(Object.class::cast).toList();
    }

    @Test
    void returnsThePatchUnchangedWhenItFitsTheBudget() {
        Stages.Recording m = new Stages.Recording(r -> "{}");
        Map<String, Object> p = merged(2);
        assertSame(p, new Select(Stages.settings(), new Optimizer(m)).rank("s", p, 2, ""));
        assertTrue(m.requests.isEmpty());
    }

    @Test
    void walksSelectedIndicesSkippingInvalidAndDuplicateOnes() {
        Stages.Recording m = new Stages.Recording(r -> "{\"reasoning\": \"r\", \"selected_indices\": [3, 3, 9, \"1\", -1, 0, 2]}");
        Map<String, Object> out = new Select(Stages.settings(), new Optimizer(m)).rank("s", merged(4), 2, "");
        assertEquals(List.of("e3", "e0"), contents(out));
        assertEquals("m [optimizer-ranked: selected 2/4 edits]", out.get("reasoning"));
        assertTrue(out.containsKey("ranking_details"));
        String u = m.requests.get(0).lastUserText();
        assertTrue(u.contains("## Edits Pool (4 edits, budget=2)\n[0] op=append  content='e0'  support=0\n"), u);
        assertTrue(u.endsWith("Select the 2 most important edits. Return their 0-based indices in priority order."));
    }

    @Test
    void poolLinesOmitEmptyFieldsAndShowSupportAsGivenInEveryMode() {
        Select patch = new Select(Stages.settings(), new Optimizer(new Stages.Recording(r -> "{}")));
        Map<String, Object> e = new java.util.LinkedHashMap<>(Map.of("op", "replace", "target", "it's", "content", "", "support_count", "4"));
        assertEquals("op=replace  target=\"it's\"  support=4", patch.describe(e));
        assertEquals("op=?", patch.describe(Map.of()));
        assertEquals("", patch.describe("not a dict"));
        Select rewrite = new Select(Stages.settings("skill_update_mode", "rewrite"), new Optimizer(new Stages.Recording(r -> "{}")));
        assertEquals("type=add_rule  title='T'  instruction='Do X'  support=2.5",
                rewrite.describe(Map.of("type", "add_rule", "title", "T", "instruction", "Do X", "priority_hint", "", "support_count", 2.5)));
        assertEquals("type=?  title=''  instruction=''  priority=high", rewrite.describe(Map.of("priority_hint", "high")));
    }

    @Test
    void theRewritePoolIsASuggestionsPool() {
        Stages.Recording m = new Stages.Recording(r -> "{\"selected_indices\": [1]}");
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 3; i++) items.add(Map.of("type", "add_rule", "title", "t" + i, "instruction", "i" + i));
        new Select(Stages.settings("skill_update_mode", "rewrite"), new Optimizer(m)).rank("s", Map.of("reasoning", "m", "revise_suggestions", items), 1, "");
        String u = m.requests.get(0).lastUserText();
        assertTrue(u.contains("## Suggestions Pool (3 suggestions, budget=1)\n[0] type=add_rule  title='t0'  instruction='i0'\n"), u);
        assertTrue(u.endsWith("Select the 1 most important suggestions. Return their 0-based indices in priority order."), u);
        assertTrue(m.requests.get(0).systemText().startsWith("You select the most valuable revise suggestions"));
    }

    @Test
    void aZeroBudgetStillKeepsTheFirstValidIndexAsUpstream() {
        Stages.Recording m = new Stages.Recording(r -> "{\"selected_indices\": [1, 0]}");
        assertEquals(List.of("e1"), contents(new Select(Stages.settings(), new Optimizer(m)).rank("s", merged(3), 0, "")));
    }

    @Test
    void truncatesWhenTheRankingIsUnusable() {
        Stages.Recording m = new Stages.Recording(r -> "no idea");
        Optimizer opt = new Optimizer(m);
        Map<String, Object> out = new Select(Stages.settings(), opt).rank("s", merged(4), 2, "");
        assertEquals(List.of("e0", "e1"), contents(out));
        assertEquals("m [fallback truncated 4->2 edits]", out.get("reasoning"));
        assertEquals(1, opt.drainFallbacks().size());
    }

    @Test
    void rendersStringsAsPythonRepr() {
        assertEquals("'it'", Select.repr("it"));
        assertEquals("\"it's\"", Select.repr("it's"));
        assertEquals("'a\\nb \\'q\\' \"d\"'", Select.repr("a\nb 'q' \"d\""));
        assertEquals("'\\x00'", Select.repr("\u0000"));
        assertEquals("['a', 3, None]", Select.repr(java.util.Arrays.asList("a", 3, null)));
    }

    @Test
    void coercesTheAutonomousLearningRate() {
        assertEquals(3, Select.coerce(3));
        assertEquals(0, Select.coerce(-2));
        assertEquals(2, Select.coerce(2.0));
        assertEquals(4, Select.coerce("about 4 edits"));
        assertEquals(0, Select.coerce("-5"));
        assertNull(Select.coerce(true));
        assertNull(Select.coerce("none"));
        assertNull(Select.coerce(null));
    }

    @Test
    void autonomousDecisionIsClampedAndFallsBackToZero() {
        Stages.Recording m = new Stages.Recording(r -> "{\"learning_rate\": 9, \"reasoning\": \"go\", \"confidence\": \"high\", \"risk_notes\": [\"x\"]}");
        Map<String, Object> d = new Select(Stages.settings(), new Optimizer(m)).decideBudget("s", merged(3), 0.5, 0.6, 4, "", "");
        assertEquals(List.of("learning_rate", "raw_learning_rate", "available_update_items", "clamped", "fallback", "reasoning",
                "confidence", "risk_notes", "raw_response"), List.copyOf(d.keySet()));
        assertEquals(3, d.get("learning_rate"));
        assertEquals(true, d.get("clamped"));
        assertTrue(m.requests.get(0).lastUserText().contains("## Current Step Evidence\nrollout_n=4\nrollout_hard=0.500000\nrollout_soft=0.600000\n"));
        Stages.Recording invalid = new Stages.Recording(r -> "{\"reasoning\": \"no number\"}");
        Map<String, Object> f = new Select(Stages.settings(), new Optimizer(invalid)).decideBudget("s", merged(3), 0, 0, 1, "", "");
        assertEquals(0, f.get("learning_rate"));
        assertEquals(true, f.get("fallback"));
        // a call that failed after its retries is errored, not a decision of 0: the step stops, nothing recorded
        Stages.Recording broken = new Stages.Recording(r -> { throw new IllegalStateException("down"); });
        io.skillopt4j.ErroredHalt e = assertThrows(io.skillopt4j.ErroredHalt.class,
                () -> new Select(Stages.settings(), new Optimizer(broken)).decideBudget("s", merged(3), 0, 0, 1, "", ""));
        assertEquals("lr_autonomous", e.stage());
        assertTrue(e.getMessage().contains("down"), e.getMessage());
    }
}
