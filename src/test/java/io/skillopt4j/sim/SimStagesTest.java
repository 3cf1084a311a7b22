package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.skillopt4j.env.houserules.HouseCategory.*;
import static org.junit.jupiter.api.Assertions.*;

/** The optimizer stages after reflect, driven by user messages in upstream's §5.2 shapes. */
class SimStagesTest {
    private final SimModel sim = SimModel.of(7, SimBehaviour.perfect());

    private static Map<String, Object> json(String reply) {
        return Json.parseObject(reply.substring(reply.indexOf('{'), reply.lastIndexOf('}') + 1));
    }

    private static Map<String, Object> edit(String content, String source) {
        return Map.of("op", "append", "content", content, "source_type", source);
    }

    @Test void mergeDeduplicatesAndSumsSupportThenOrdersBySupport() {
        List<Object> patches = List.of(
                Map.of("reasoning", "a", "edits", List.of(edit("- " + TIME.rule(), "failure"), edit("- " + DATE.rule(), "failure")), "source_type", "failure"),
                Map.of("reasoning", "b", "edits", List.of(edit("-  " + DATE.rule() + " ", "failure")), "source_type", "failure"));
        String user = "## Current Skill\n" + Prompts.SKILL + "\n\n## Patches to merge (2 total, merge level 1)\n" + Json.pretty(patches);
        assertEquals("merge", sim.stage("", user));
        @SuppressWarnings("unchecked") List<Map<String, Object>> edits = (List<Map<String, Object>>) json(sim.reply("", user)).get("edits");
        assertEquals(2, edits.size());
        assertEquals("- " + DATE.rule(), edits.get(0).get("content"));
        assertEquals(2, edits.get(0).get("support_count"));
        assertEquals(1, edits.get(1).get("support_count"));
    }

    @Test void finalMergeKeepsFailureGroupFirst() {
        List<Object> groups = List.of(
                Map.of("reasoning", "f", "edits", List.of(edit("- " + NAMING.rule(), "failure"))),
                Map.of("reasoning", "s", "edits", List.of(Map.of("op", "append", "content", AnalystRole.REINFORCE, "source_type", "success", "support_count", 5))));
        String user = "## Current Skill\n" + Prompts.SKILL + "\n\n## Two pre-merged patch groups to combine\nGroup 1 (failure-driven, HIGH priority): 1 edits\n"
                + "Group 2 (success-driven, lower priority): 1 edits\n" + Json.pretty(groups);
        assertEquals("merge_final", sim.stage("", user));
        @SuppressWarnings("unchecked") List<Map<String, Object>> edits = (List<Map<String, Object>>) json(sim.reply("", user)).get("edits");
        assertEquals("- " + NAMING.rule(), edits.get(0).get("content"));
        assertEquals(2, edits.size());
    }

    @Test void rankingSelectsTheBudgetBySupportAndPutsRestatementsLast() {
        String skill = Prompts.SKILL;
        String user = "## Current Skill\n" + skill + "\n\n## Edits Pool (4 edits, budget=2)\n"
                + "[0] op=append target='' content='- " + ORDERING.rule() + "' support=9\n"
                + "[1] op=append target='' content='- " + TIME.rule() + "' support=1\n"
                + "[2] op=append target='' content='- " + DATE.rule() + "' support=3\n"
                + "[3] op=append target='' content='- " + PERCENT.rule() + "' support=2\n\n"
                + "Select the 2 most important edits. Return their 0-based indices in priority order.";
        assertEquals("ranking", sim.stage("", user));
        assertEquals(List.of(2, 3), json(sim.reply("", user)).get("selected_indices"));
    }

    @Test void autonomousLearningRateShrinksAsRolloutsImprove() {
        String low = "## Current Skill\nx\n\n## Current Step Evidence\nrollout_n=16\nrollout_hard=0.250000\nrollout_soft=0.5\nproposed_update_items=5\nupdate_item_type=edits\n";
        String high = low.replace("0.250000", "0.900000");
        assertEquals("lr_autonomous", sim.stage("", low));
        assertEquals(3, json(sim.reply("", low)).get("learning_rate"));
        assertEquals(1, json(sim.reply("", high)).get("learning_rate"));
        assertNotNull(json(sim.reply("", low)).get("risk_notes"));
    }

    @Test void rewriteReturnsTheNewSkillWithTheSuggestionsApplied() {
        String skill = Prompts.SKILL + "- " + TIME.decoy() + "\n";
        List<Object> sugg = List.of(
                Map.of("type", "add_rule", "title", "dates", "instruction", DATE.rule(), "support_count", 2),
                Map.of("type", "clarify", "title", "times", "instruction", "Replace the line \"" + TIME.decoy() + "\" with: " + TIME.rule()));
        String user = "## Current Skill\n" + skill + "\n\n## Selected Revise Suggestions (2 total)\n" + Json.pretty(sugg)
                + "\n\nReturn the complete revised skill in new_skill.";
        assertEquals("rewrite", sim.stage("", user));
        Map<String, Object> out = json(sim.reply("", user));
        String s = (String) out.get("new_skill");
        assertTrue(s.contains(DATE.rule()) && s.contains(TIME.rule()) && !s.contains(TIME.decoy()), s);
        assertEquals(2, ((List<?>) out.get("change_summary")).size());
    }

    @Test void fullRewriteAnalystReturnsOneCompleteSkillCandidate() {
        String user = Prompts.errorAnalyst(Prompts.SKILL, 3, List.of(DATE, TIME)).replace("## Edits Budget\nProduce at most L=3 edits.",
                "## Update Format\nReturn one complete replacement skill.");
        Map<String, Object> out = json(sim.reply("", user));
        @SuppressWarnings("unchecked") List<Map<String, Object>> c = (List<Map<String, Object>>) ((Map<String, Object>) out.get("patch")).get("skill_candidates");
        assertEquals(1, c.size());
        assertTrue(((String) c.get(0).get("new_skill")).contains(DATE.rule()));
    }

    private static String comparison() {
        return "## Longitudinal Comparison (same 20 tasks, two skill versions)\nimproved: 1, regressed: 1, persistent_fail: 2, stable_success: 1\n\n"
                + "### Regressions (HIGHEST PRIORITY)\n- time-004: PASS -> FAIL\n\n### Persistent Failures\n- date-001: FAIL -> FAIL\n- date-007: FAIL -> FAIL\n\n"
                + "### Improvements\n- naming-002: FAIL -> PASS\n\n### Stable Successes\n- ordering-003\n";
    }

    @Test void slowUpdateWritesGuidanceForRegressedAndPersistentCategories() {
        String user = "## Previous Epoch's Skill\na\n\n## Current Epoch's Skill\nb\n\n## Previous Slow Update Guidance\n(No previous guidance — this is the first slow update.)\n\n" + comparison();
        assertEquals("slow_update", sim.stage("", user));
        String content = (String) json(sim.reply("", user)).get("slow_update_content");
        assertTrue(content.contains("1 improved, 1 regressed, 2 persistent failures, 1 stable successes"), content);
        assertTrue(content.contains(DATE.rule()) && content.contains(TIME.rule()), content);
    }

    @Test void metaSkillWritesOptimizerFacingStrategy() {
        String user = "## Previous Epoch's Last-Step Skill\na\n\n## Current Epoch's Last-Step Skill\nb\n\n## Previous Meta Skill\n(none)\n\n" + comparison();
        assertEquals("meta_skill", sim.stage("", user));
        String content = (String) json(sim.reply("", user)).get("meta_skill_content");
        assertTrue(content.contains("date (2)"), content);
    }

    @Test void appendixConsolidationReturnsAStrictlyShorterList() {
        String user = "## Current Execution Notes (3 total)\n1. Re-read the date rule.\n2. re-read the date rule\n3. Check times.\n";
        assertEquals("appendix_consolidate", sim.stage("", user));
        assertEquals(List.of("Re-read the date rule.", "Check times."), json(sim.reply("", user)).get("appendix_notes"));
        String distinct = "## Current Execution Notes (2 total)\n1. A.\n2. B.\n";
        assertEquals(1, ((List<?>) json(sim.reply("", distinct)).get("appendix_notes")).size());
    }
}
