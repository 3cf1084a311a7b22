package io.skillopt4j.env;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Immutable. The YAML frontmatter of a SKILL.md, checked against the Agent Skills specification. */
public record SkillFrontmatter(String name, String description, Map<String, Object> fields, int bodyStart) {
    public static final int NAME_MAX = 64;
    public static final int DESCRIPTION_MAX = 1024;
    public static final int COMPATIBILITY_MAX = 500;
    static final Set<String> ALLOWED = Set.of("name", "description", "license", "compatibility", "metadata", "allowed-tools");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    /** The frontmatter of {@code skillMd} when it opens with a {@code ---} block that YAML reads as a map. */
    public static Optional<SkillFrontmatter> parse(String skillMd) {
        try {
            return Optional.ofNullable(parseOrThrow(skillMd));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Null without a frontmatter block; IllegalArgumentException with the reason when the block is not a YAML map. */
    @SuppressWarnings("unchecked")
    private static SkillFrontmatter parseOrThrow(String skillMd) {
        String t = skillMd == null ? "" : skillMd.replace("\r\n", "\n");
        if (!t.startsWith("---\n")) return null;
        int end = t.indexOf("\n---", 3);
        if (end < 0) throw new IllegalArgumentException("frontmatter opened with '---' is never closed");
        int after = t.indexOf('\n', end + 4);
        Object y;
        try {
            y = new Yaml(new SafeConstructor(new LoaderOptions())).load(t.substring(4, end + 1));
        } catch (YAMLException e) {
            throw new IllegalArgumentException("frontmatter is not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!(y instanceof Map<?, ?> m)) throw new IllegalArgumentException("frontmatter is not a YAML mapping");
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        m.forEach((k, v) -> fields.put(String.valueOf(k), v));
        return new SkillFrontmatter(fields.get("name") instanceof String n ? n : "",
                fields.get("description") instanceof String d ? d : "", fields, after < 0 ? t.length() : after + 1);
    }

    /** The text after the frontmatter (the whole text when there is none). */
    public static String body(String skillMd) {
        return parse(skillMd).map(f -> skillMd.replace("\r\n", "\n").substring(f.bodyStart())).orElse(skillMd == null ? "" : skillMd);
    }

    /** One line per problem of the frontmatter; {@code folderName} (null: not checked) must equal the name. */
    public static List<String> problems(String skillMd, String folderName) {
        SkillFrontmatter f;
        try {
            f = parseOrThrow(skillMd);
        } catch (IllegalArgumentException e) {
            return List.of(e.getMessage());
        }
        if (f == null) return List.of("no frontmatter: SKILL.md must start with '---', the fields name and description, then '---'");
        List<String> out = new ArrayList<>();
        Object n = f.fields().get("name");
        if (!(n instanceof String name) || name.isEmpty()) {
            out.add("frontmatter name is missing or not text (allowed: 1-" + NAME_MAX + " lower-case letters, digits and hyphens)");
        } else {
            if (name.length() > NAME_MAX) out.add("frontmatter name \"" + name + "\" has " + name.length() + " characters (allowed: at most " + NAME_MAX + ")");
            if (!NAME.matcher(name).matches()) out.add("frontmatter name \"" + name + "\" is not lower-case letters, digits and single hyphens "
                    + "(no capitals, no leading, trailing or double hyphen)");
            if (folderName != null && !folderName.equals(name)) out.add("frontmatter name \"" + name + "\" differs from the folder's name \"" + folderName + "\"");
        }
        Object d = f.fields().get("description");
        if (!(d instanceof String desc) || desc.isBlank()) {
            out.add("frontmatter description is missing or empty (allowed: 1-" + DESCRIPTION_MAX + " characters saying what the skill does and when to use it)");
        } else if (desc.codePointCount(0, desc.length()) > DESCRIPTION_MAX) {
            out.add("frontmatter description has " + desc.codePointCount(0, desc.length()) + " characters (allowed: at most " + DESCRIPTION_MAX + ")");
        }
        if (f.fields().get("compatibility") instanceof String c && c.length() > COMPATIBILITY_MAX)
            out.add("frontmatter compatibility has " + c.length() + " characters (allowed: at most " + COMPATIBILITY_MAX + ")");
        if (f.fields().containsKey("metadata") && !(f.fields().get("metadata") instanceof Map))
            out.add("frontmatter metadata is not a mapping");
        for (String k : f.fields().keySet())
            if (!ALLOWED.contains(k)) out.add("frontmatter field \"" + k + "\" is not in the specification (allowed: " + String.join(", ", new java.util.TreeSet<>(ALLOWED)) + ")");
        return out;
    }
}
