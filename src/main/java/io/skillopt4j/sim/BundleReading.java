package io.skillopt4j.sim;

import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.env.SkillFrontmatter;
import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseCategory.Style;

/**
 * Stateless. How the simulated target reads an Agent Skill bundle, by progressive disclosure as agents do: it
 * follows only the first {@link #BODY_RULE_LIMIT} conventions of SKILL.md's body, and a reference in full (winning
 * over the body) only when the body names its path. A plain single-file skill is read as a whole.
 */
final class BundleReading {
    /** House conventions of a bundle's body the target follows; the rest it skims. */
    static final int BODY_RULE_LIMIT = 3;
    /** The reference the simulated analysts create and link. */
    static final String REFERENCE = "references/house-rules.md";

    private BundleReading() {}

    /** The style the target uses for category {@code c} after reading {@code skill}. */
    static Style style(HouseCategory c, String skill) {
        if (!SkillBundle.isAgentSkill(skill)) return c.styleIn(skill);
        String body = body(skill);
        Style fromReference = c.styleIn(linkedReferences(skill));
        if (fromReference != Style.NAIVE) return fromReference;
        Style inBody = c.styleIn(body);
        if (inBody != Style.HOUSE) return inBody;
        return rank(c, body) < BODY_RULE_LIMIT ? Style.HOUSE : Style.NAIVE;
    }

    /** SKILL.md's body (frontmatter removed) of a packed bundle or a SKILL.md. */
    static String body(String skill) { return SkillFrontmatter.body(SkillBundle.unpack(skill).skillMd()); }

    /** The text of every reference whose path the body names (a preview block's header carries its size after the path). */
    private static String linkedReferences(String skill) {
        SkillBundle b = SkillBundle.unpack(skill);
        String body = SkillFrontmatter.body(b.skillMd());
        return b.references().stream().filter(p -> body.contains(p.split(" ", 2)[0])).map(p -> b.files().get(p) + "\n")
                .collect(java.util.stream.Collectors.joining());
    }

    /** How many other conventions the body states before {@code c}'s. */
    private static int rank(HouseCategory c, String body) {
        int at = c.ruleIndexIn(body), n = 0;
        for (HouseCategory o : HouseCategory.values()) {
            int i = o.ruleIndexIn(body);
            if (o != c && i >= 0 && i < at && o.styleIn(body) == Style.HOUSE) n++;
        }
        return n;
    }
}
