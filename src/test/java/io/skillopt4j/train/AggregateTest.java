package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.*;

class AggregateTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @AfterEach void stop() { pool.shutdownNow(); }

    private static Map<String, Object> patch(String... contents) {
        List<Object> edits = new ArrayList<>();
        for (String c : contents) edits.add(new java.util.LinkedHashMap<>(Map.of("op", "append", "content", c)));
        return new java.util.LinkedHashMap<>(Map.of("reasoning", "r", "edits", edits));
    }

    /** Merges by concatenating the contents of the patches it is given, joined with "+". */
    private static String concatMerge(io.skillopt4j.backend.ChatRequest r) {
        String u = r.lastUserText();
        List<Object> patches = Json.parseArray(u.substring(u.indexOf("\n[") + 1));
        StringBuilder b = new StringBuilder();
        for (Object p : patches) for (Object e : (List<?>) ((Map<?, ?>) p).get("edits")) b.append(b.length() == 0 ? "" : "+").append(((Map<?, ?>) e).get("content"));
        return Json.pretty(Map.of("reasoning", "m", "edits", List.of(Map.of("op", "append", "content", b.toString()))));
    }

    @Test
    void mergesLevelByLevelInChunksOfMergeBatchSizeKeepingChunkOrder() {
        Stages.Recording m = new Stages.Recording(AggregateTest::concatMerge);
        Aggregate a = new Aggregate(Stages.settings("merge_batch_size", 2), new Optimizer(m), pool);
        List<Map<String, Object>> fails = List.of(patch("a"), patch("b"), patch("c"), patch("d"), patch("e"));
        Map<String, Object> out = a.run("skill", fails, List.of(), "");
        // level 1: (a,b) (c,d) (e) → level 2: (ab, cd) (e) → level 3: (abcd, e)
        assertEquals(4, m.requests.size());
        Map<?, ?> edit = (Map<?, ?>) ((List<?>) out.get("edits")).get(0);
        assertEquals("a+b+c+d+e", edit.get("content"));
        assertEquals(3, edit.get("merge_level"));
        assertTrue(m.requests.get(0).lastUserText().contains("## Patches to merge (2 total, merge level 1)"));
        assertEquals("merge", m.requests.get(0).stage());
    }

    @Test
    void passesASinglePatchThroughAndCombinesGroupsWithOneFinalCall() {
        Stages.Recording m = new Stages.Recording(AggregateTest::concatMerge);
        Aggregate a = new Aggregate(Stages.settings("merge_batch_size", 8), new Optimizer(m), pool);
        Map<String, Object> only = patch("x");
        assertSame(only, a.run("s", List.of(only), List.of(), ""));
        assertEquals(0, m.requests.size());
        Map<String, Object> both = a.run("s", List.of(patch("f")), List.of(patch("s")), "");
        assertEquals(1, m.requests.size());
        String u = m.requests.get(0).lastUserText();
        assertTrue(u.contains("## Two pre-merged patch groups to combine\nGroup 1 (failure-driven, HIGH priority): 1 edits\n"
                + "Group 2 (success-driven, lower priority): 1 edits"), u);
        assertEquals("f+s", ((Map<?, ?>) ((List<?>) both.get("edits")).get(0)).get("content"));
        assertEquals(Map.of("reasoning", "no updates from either group", "edits", List.of()), a.run("s", List.of(), List.of(), ""));
    }

    @Test
    void theFinalMergeNamesCountsAndGroupsAsUpstreamInEveryMode() {
        Aggregate rewrite = new Aggregate(Stages.settings("skill_update_mode", "rewrite"), new Optimizer(new Stages.Recording(r -> "{}")), pool);
        assertEquals("## Two pre-merged patch groups to combine\nGroup 1 (failure-driven, HIGH priority): 2 edits\n"
                + "Group 2 (success-driven, lower priority): 1 edits", rewrite.finalGroups(2, 1), "upstream says edits in rewrite mode too");
        Aggregate full = new Aggregate(Stages.settings("skill_update_mode", "full_rewrite"), new Optimizer(new Stages.Recording(r -> "{}")), pool);
        assertEquals("## Two pre-merged candidate groups to combine\nGroup 1 (from failed trajectories): 1 skill candidates\n"
                + "Group 2 (from successful trajectories): 1 skill candidates", full.finalGroups(1, 1));
        assertTrue(Prompts.generic("merge_final_full_rewrite").contains("\"support_count\""), "the full-rewrite final merge keeps support_count");
    }

    @Test
    void fallsBackToConcatenationWhenTheReplyIsUnusable() {
        Stages.Recording m = new Stages.Recording(r -> "{\"reasoning\": \"x\", \"edits\": \"not a list\"}");
        Optimizer opt = new Optimizer(m);
        Aggregate a = new Aggregate(Stages.settings("merge_batch_size", 2), opt, pool);
        Map<String, Object> out = a.run("s", List.of(patch("a"), patch("b")), List.of(patch("c"), patch("d")), "");
        assertEquals("fallback: failure first, then success", out.get("reasoning"));
        List<?> edits = (List<?>) out.get("edits");
        assertEquals(List.of("a", "b", "c", "d"), edits.stream().map(e -> ((Map<?, ?>) e).get("content")).toList());
        assertEquals(1, ((Map<?, ?>) edits.get(0)).get("merge_level"));
        assertEquals(3, opt.drainFallbacks().size(), "two group merges and the final merge fell back");
    }

    @Test
    void includesTheMetaSkillContext() {
        Stages.Recording m = new Stages.Recording(AggregateTest::concatMerge);
        new Aggregate(Stages.settings(), new Optimizer(m), pool).run("s", List.of(patch("a"), patch("b")), List.of(), "- prefer appends");
        assertTrue(m.requests.get(0).lastUserText().startsWith("## Optimizer Meta Skill\n"));
    }
}
