package io.skillopt4j.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Stateless. Where the error analyst puts its edits in an Agent Skill bundle: most new conventions in
 * {@link BundleReading#REFERENCE} (some in SKILL.md's body), a decoy fix in the file that holds it, and first the
 * line that links the reference when the body does not name it yet (else the target never opens it).
 */
final class BundleProposals {
    static final String LINK = "Before answering, read " + BundleReading.REFERENCE + ": it lists every house format (dates, numbers, money, units, names, lists, times, percentages, yes/no, headings).";

    private BundleProposals() {}

    static List<AnalystRole.Proposal> place(List<AnalystRole.Proposal> ps, String skill, SplittableRandom r) {
        String body = BundleReading.body(skill);
        List<AnalystRole.Proposal> out = new ArrayList<>();
        int toReference = 0;
        for (AnalystRole.Proposal p : ps) {
            String file = p.op().equals("replace") ? (body.contains(p.target()) ? "SKILL.md" : BundleReading.REFERENCE)
                    : p.category() == null || r.nextDouble() < AnalystRole.BODY_SHARE ? "SKILL.md" : BundleReading.REFERENCE;
            if (file.equals(BundleReading.REFERENCE)) toReference += p.support();
            out.add(p.in(file));
        }
        if (toReference > 0 && !body.contains(BundleReading.REFERENCE))
            out.add(0, new AnalystRole.Proposal(null, "append", "", LINK, toReference, "SKILL.md"));
        return out;
    }
}
