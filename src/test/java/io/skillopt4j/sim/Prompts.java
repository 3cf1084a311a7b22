package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseCategory.Style;
import io.skillopt4j.env.houserules.HouseRulesBenchmark;
import io.skillopt4j.env.houserules.HouseTasks;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Scripted optimizer user messages that follow upstream's §5.2 skeletons, for tests. */
final class Prompts {
    private Prompts() {}

    static final String SKILL = "# House Style Answering Skill\n\n## Answer Rules\n- Lists: sort list items alphabetically (A to Z) and separate them with commas.\n\n## House Rules\n";

    static String question(HouseCategory c, long seed) { return HouseTasks.question(c, new SplittableRandom(seed)); }

    /** A trajectory block as the trainer's formatter renders it. */
    static String trajectory(int i, String id, HouseCategory c, String skill, boolean failed) {
        String q = question(c, i);
        String gold = HouseTasks.answer(c, q, Style.HOUSE).orElseThrow();
        String got = failed ? HouseTasks.answer(c, q, Style.NAIVE).orElseThrow() : gold;
        return "### Trajectory " + i + " (id=" + id + ")\nTask: " + q + "\nTask type: " + c.key() + "\n"
                + (failed ? "Failure reason: " + c.key() + "_format: expected '" + gold + "', got '" + got + "'\n" : "")
                + "Steps: 1\n#### Target System Prompt\n" + HouseRulesBenchmark.systemPrompt(skill) + "\n#### Target User Prompt\n" + q + "\n"
                + "[agent] I use the usual format.\n<answer>" + got + "</answer>\n"
                + "[verification] [EVALUATION RESULT]\nPredicted answer: '" + got + "'\nGold answer: '" + gold + "'";
    }

    static String errorAnalyst(String skill, int budget, List<HouseCategory> failures) {
        List<String> blocks = new ArrayList<>();
        for (int i = 0; i < failures.size(); i++)
            blocks.add(trajectory(i + 1, String.format("%s-%03d", failures.get(i).key(), i), failures.get(i), skill, true));
        return "## Current Skill\n" + skill + "\n\n## Edits Budget\nProduce at most L=" + budget + " edits.\n\n## Failed Trajectories ("
                + failures.size() + " total)\n" + String.join("\n\n---\n\n", blocks);
    }

    static String successAnalyst(String skill, List<HouseCategory> ok) {
        List<String> blocks = new ArrayList<>();
        for (int i = 0; i < ok.size(); i++)
            blocks.add(trajectory(i + 1, String.format("%s-%03d", ok.get(i).key(), i), ok.get(i), skill, false));
        return "## Current Skill\n" + skill + "\n\n## Edits Budget\nProduce at most L=3 edits.\n\n## Successful Trajectories ("
                + ok.size() + " total)\n" + String.join("\n\n---\n\n", blocks);
    }
}
