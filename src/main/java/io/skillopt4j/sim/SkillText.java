package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;

import java.util.Arrays;

/** Immutable (stateless). Small edits to skill documents, keeping the machine-owned protected regions last. */
final class SkillText {
    private SkillText() {}

    private static final String[] PROTECTED = {"<!-- SLOW_UPDATE_START -->", "<!-- APPENDIX_START -->"};

    /** Adds a line to the skill's body, before any protected region, unless the exact line is already there. */
    static String addLine(String skill, String line) {
        if (skill.contains(line)) return skill;
        int cut = Arrays.stream(PROTECTED).mapToInt(skill::indexOf).filter(i -> i >= 0).min().orElse(skill.length());
        String head = skill.substring(0, cut).stripTrailing();
        String tail = skill.substring(cut);
        return head + "\n" + line + "\n" + (tail.isEmpty() ? "" : "\n" + tail);
    }

    /** Counts how many house categories the skill states a rule for. */
    static int rulesIn(String skill) {
        return (int) Arrays.stream(HouseCategory.values()).filter(c -> c.styleIn(skill) == HouseCategory.Style.HOUSE).count();
    }
}
