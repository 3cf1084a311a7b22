package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseCategory.Style;
import io.skillopt4j.env.houserules.HouseRulesBenchmark;
import io.skillopt4j.env.houserules.HouseScoring;
import io.skillopt4j.env.houserules.HouseTasks;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.skillopt4j.env.houserules.HouseCategory.*;
import static org.junit.jupiter.api.Assertions.*;

class SimModelTest {
    private final SimModel perfect = SimModel.of(7, SimBehaviour.perfect());

    private static Map<String, Object> json(String reply) {
        assertTrue(reply.startsWith("```json\n") && reply.endsWith("\n```"), reply);
        return Json.parseObject(reply.substring(8, reply.length() - 4));
    }

    private String answer(SimModel m, String skill, String q) {
        return HouseScoring.extractAnswer(m.reply(HouseRulesBenchmark.systemPrompt(skill), q));
    }

    @Test void targetFollowsOnlyTheRulesTheSkillStates() {
        String q = Prompts.question(DATE, 3);
        assertEquals(HouseTasks.answer(DATE, q, Style.NAIVE).orElseThrow(), answer(perfect, Prompts.SKILL, q));
        String withRule = Prompts.SKILL + "- " + DATE.rule() + "\n";
        assertEquals(HouseTasks.answer(DATE, q, Style.HOUSE).orElseThrow(), answer(perfect, withRule, q));
        String paraphrase = Prompts.SKILL + "- Always format dates in ISO 8601.\n";
        assertEquals(HouseTasks.answer(DATE, q, Style.HOUSE).orElseThrow(), answer(perfect, paraphrase, q));
        String decoyAfter = withRule + "- " + DATE.decoy() + "\n";
        assertEquals(HouseTasks.answer(DATE, q, Style.DECOY).orElseThrow(), answer(perfect, decoyAfter, q));
        String vague = Prompts.SKILL + "- " + DATE.vague() + "\n";
        assertEquals(HouseTasks.answer(DATE, q, Style.NAIVE).orElseThrow(), answer(perfect, vague, q));
    }

    @Test void targetIgnoresRulesOutsideTheSkillSection() {
        String q = Prompts.question(TIME, 5);
        String system = "Use the 24-hour clock.\n" + HouseRulesBenchmark.systemPrompt(Prompts.SKILL);
        assertEquals(HouseTasks.answer(TIME, q, Style.NAIVE).orElseThrow(), HouseScoring.extractAnswer(perfect.reply(system, q)));
    }

    @Test void targetSlipsAtAboutTheConfiguredRate() {
        SimModel noisy = SimModel.of(7, new SimBehaviour(0.2, 0, 0, 0, 0));
        String skill = Prompts.SKILL + "- " + NUMBER.rule() + "\n";
        int wrong = 0;
        for (int i = 0; i < 400; i++) {
            String q = Prompts.question(NUMBER, 1000 + i);
            if (!answer(noisy, skill, q).equals(HouseTasks.answer(NUMBER, q, Style.HOUSE).orElseThrow())) wrong++;
        }
        assertTrue(wrong > 50 && wrong < 110, "slips: " + wrong);
    }

    @Test void errorAnalystProposesTheMissingRulesOfTheMostFrequentCategoriesWithinBudget() {
        String user = Prompts.errorAnalyst(Prompts.SKILL, 2, List.of(DATE, TIME, DATE, CURRENCY, DATE, TIME));
        assertEquals("analyst_error", perfect.stage("sys", user));
        Map<String, Object> out = json(perfect.reply("You are the error analyst.", user));
        assertEquals(6, out.get("batch_size"));
        @SuppressWarnings("unchecked") List<Map<String, Object>> edits = (List<Map<String, Object>>) ((Map<String, Object>) out.get("patch")).get("edits");
        assertEquals(2, edits.size());
        assertEquals("- " + DATE.rule(), edits.get(0).get("content"));
        assertEquals("- " + TIME.rule(), edits.get(1).get("content"));
        assertEquals("append", edits.get(0).get("op"));
        assertEquals(3, ((List<?>) out.get("failure_summary")).size());
    }

    @Test void errorAnalystRepairsADecoyWithAReplaceEdit() {
        String skill = Prompts.SKILL + "- " + HEADING.decoy() + "\n";
        Map<String, Object> out = json(perfect.reply("sys", Prompts.errorAnalyst(skill, 3, List.of(HEADING))));
        @SuppressWarnings("unchecked") Map<String, Object> e = ((List<Map<String, Object>>) ((Map<String, Object>) out.get("patch")).get("edits")).get(0);
        assertEquals("replace", e.get("op"));
        assertEquals(HEADING.decoy(), e.get("target"));
        assertEquals(HEADING.rule(), e.get("content"));
    }

    @Test void defaultAnalystSometimesProposesHarmfulVagueOrRedundantEdits() {
        String skill = Prompts.SKILL + "- " + DATE.rule() + "\n";
        int decoys = 0, vague = 0, redundant = 0;
        for (int i = 0; i < 60; i++) {
            SimModel m = SimModel.of(i);
            String user = Prompts.errorAnalyst(skill, 3, List.of(TIME, CURRENCY, DATE, HouseCategory.values()[i % 10]));
            String reply = m.reply("sys", user);
            for (HouseCategory c : HouseCategory.values()) {
                if (reply.contains(c.decoy())) decoys++;
                if (reply.contains(c.vague())) vague++;
            }
            if (reply.contains("\"- " + DATE.rule() + "\"") || reply.contains("\"- " + ORDERING.rule() + "\"")) redundant++;
        }
        assertTrue(decoys > 5 && vague > 5 && redundant > 3, decoys + " " + vague + " " + redundant);
    }

    @Test void repliesDependOnlyOnSeedAndContent() {
        String user = Prompts.errorAnalyst(Prompts.SKILL, 3, List.of(DATE, TIME, NAMING, PERCENT));
        SimModel a = SimModel.of(11), b = SimModel.of(11);
        assertEquals(a.reply("s", user), b.reply("s", user));
        boolean differs = false;
        for (long s = 1; s < 40 && !differs; s++) differs = !SimModel.of(s).reply("s", user).equals(a.reply("s", user));
        assertTrue(differs, "other seeds should sometimes answer differently");
    }

    @Test void successAnalystReportsPatternsInTheSuccessShape() {
        Map<String, Object> out = json(perfect.reply("sys", Prompts.successAnalyst(Prompts.SKILL, List.of(ORDERING, ORDERING))));
        assertEquals(2, out.get("batch_size"));
        assertFalse(((List<?>) out.get("success_patterns")).isEmpty());
        assertTrue(((Map<?, ?>) out.get("patch")).get("edits") instanceof List);
    }

    @Test void unknownPromptsGetAPlainNote() {
        assertEquals("chat", perfect.stage("", "Say hi"));
        assertTrue(perfect.reply("", "Say hi").contains("deterministic stand-in"));
    }
}
