package io.skillopt4j.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Stateless. Where the simulated error analyst puts its edits when the skill is an Agent Skill bundle: most new
 * conventions go into {@link BundleReading#REFERENCE} (some, like a model that ignores the bundle, into SKILL.md's
 * body), a fix of a decoy goes to the file that holds it, and when the reference is used but the body does not
 * name it yet, a first edit adds the line that links it (without it the target never opens the reference).
 */
final class BundleProposals {
    static final String LINK = "Before answering, read " + BundleReading.REFERENCE + ": it lists every house format (dates, numbers, money, units, names, lists, times, percentages, yes/no, headings).";

    private BundleProposals() {}

    static List<AnalystRole.Proposal> place(List<AnalystRole.Proposal> ps, String skill, SplittableRandom r) {
        String body = BundleReading.body(skill);
        List<AnalystRole.Proposal> out = new ArrayList<>();
        int toReference = 0;
        for (AnalystRole.Proposal p : ps) {
            String file;
            if (p.op().equals("replace")) file = body.contains(p.target()) ? "SKILL.md" : BundleReading.REFERENCE;
            else if (p.category() == null) file = "SKILL.md";
            else file = r.nextDouble() < AnalystRole.BODY_SHARE ? "SKILL.md" : BundleReading.REFERENCE;
            if (file.equals(BundleReading.REFERENCE)) toReference += p.support();
            out.add(p.in(file));
        }
        if (toReference > 0 && !body.contains(BundleReading.REFERENCE))
            out.add(0, new AnalystRole.Proposal(null, "append", "", LINK, toReference, "SKILL.md"));
        return out;
    }
}
