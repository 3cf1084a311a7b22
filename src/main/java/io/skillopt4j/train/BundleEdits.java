package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.env.SkillFrontmatter;

import java.util.List;

/** Stateless. One edit to one file of a packed bundle; one outside it or breaking SKILL.md is a refused report row. */
final class BundleEdits {
    private BundleEdits() {}

    /** Applies the edit to {@code file} of {@code packed}, writing the new packed text into {@code out[0]}; returns the status. */
    static String apply(String packed, String file, Object op, String target, String content, String[] out, String[] why) {
        out[0] = packed;
        String problem = SkillBundle.pathProblem(file);
        if (problem != null) {
            why[0] = problem;
            return "skipped_path_outside_bundle";
        }
        SkillBundle b = SkillBundle.unpack(packed);
        String before = b.file(file).orElse(null);
        if (before == null) {
            if ("replace".equals(op) || "delete".equals(op)) {
                why[0] = "no file " + file + " in the bundle (create it with append)";
                return "skipped_file_not_found";
            }
            before = "";
        }
        String[] one = {before};
        String status = EditApplier.applyToText(before, op, target, content, one);
        if (!status.startsWith("applied")) return status;
        String after = one[0];
        if (file.equals(SkillBundle.SKILL_MD)) {
            String broken = frontmatterBroken(before, after);
            if (broken != null) {
                why[0] = broken;
                return "skipped_frontmatter_invalid";
            }
        } else if (before.isEmpty()) {
            after = after.stripLeading();
        }
        try {
            out[0] = b.with(file, after).pack();
        } catch (ConfigException e) {
            why[0] = e.getMessage();
            return "skipped_path_outside_bundle";
        }
        return status;
    }

    /** Why {@code after} may not replace {@code before} as SKILL.md (frontmatter valid, same name), or null. */
    static String frontmatterBroken(String before, String after) {
        if (!SkillFrontmatter.problems(before, null).isEmpty()) return null;
        List<String> p = SkillFrontmatter.problems(after, null);
        if (!p.isEmpty()) return "the edit breaks SKILL.md's " + p.get(0);
        String n0 = SkillFrontmatter.parse(before).map(SkillFrontmatter::name).orElse("");
        String n1 = SkillFrontmatter.parse(after).map(SkillFrontmatter::name).orElse("");
        return n0.equals(n1) ? null : "the edit renames the skill from \"" + n0 + "\" to \"" + n1 + "\" (the name is the folder's and stays)";
    }
}
