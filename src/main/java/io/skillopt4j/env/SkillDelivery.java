package io.skillopt4j.env;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** How the target gets the skill ({@code env.skill_delivery}): in its prompt, as a file to read, or natively. */
public enum SkillDelivery {
    PROMPT, FILE, NATIVE;

    /** The exec workspace folder of file delivery. */
    public static final String FILE_DIR = ".agents/skills/skillopt-target/";
    /** Where native delivery installs a bundle, under its name. */
    public static final String NATIVE_DIR = ".claude/skills/";
    /** The skill name native delivery uses when SKILL.md has no frontmatter name. */
    public static final String DEFAULT_NAME = "skillopt-target";

    /** The configured mode; {@code auto} (or blank) is prompt for chat targets and file for exec targets. */
    public static SkillDelivery of(String configured, boolean execTarget) {
        String c = configured == null ? "" : configured.strip().toLowerCase(Locale.ROOT);
        return switch (c) {
            case "prompt" -> PROMPT;
            case "file" -> FILE;
            case "native" -> NATIVE;
            default -> execTarget ? FILE : PROMPT;
        };
    }

    /** The text an exec agent writes as its SKILL.md: the body (the agent adds a frontmatter); none for native. */
    public String execSkill(String skill) {
        if (this == NATIVE) return "";
        if (!SkillBundle.isAgentSkill(skill)) return skill == null ? "" : skill;
        return SkillFrontmatter.body(SkillBundle.unpack(skill).skillMd());
    }

    /** The bundle files this mode adds to an exec workspace (relative path → content). */
    public Map<String, String> workspaceFiles(String skill) {
        Map<String, String> out = new LinkedHashMap<>();
        if (this == PROMPT) return out;
        SkillBundle b = SkillBundle.unpack(skill);
        if (this == FILE) {
            for (String p : b.references()) out.put(FILE_DIR + p, b.files().get(p));
            return out;
        }
        String name = b.name().isEmpty() ? DEFAULT_NAME : b.name();
        SkillBundle installed = SkillBundle.isAgentSkill(skill) ? b : b.withSkillMd(nativeSkillMd(b.skillMd()));
        installed.files().forEach((p, c) -> out.put(NATIVE_DIR + name + "/" + p, c));
        return out;
    }

    /** A plain single-file skill installed natively gets the frontmatter Claude Code needs to list it. */
    static String nativeSkillMd(String text) {
        return "---\nname: " + DEFAULT_NAME + "\ndescription: Task guidance for the work in task.md; use it for every task in this workspace.\n---\n\n"
                + (text == null ? "" : text);
    }
}
