package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;

import io.skillopt4j.env.houserules.HouseCategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;


/**
 * Immutable. The simulated error and success analysts in the three update modes. The error analyst proposes the
 * missing rule of the most frequent failing house categories; like a real model it sometimes writes a vague
 * sentence, a harmful decoy rule, or a rule the skill already has.
 */
record AnalystRole(long seed, SimBehaviour b) {
    static final String REINFORCE = "- ALWAYS apply the house rules exactly as written; never fall back to a generic format.";
    private static final List<String> AFTER_SKILL = List.of("## Edits Budget", "## Suggestions Budget", "## Update Format",
            "## Previous Steps in This Epoch", "## Optimizer Meta Skill", "## Failed Trajectories (", "## Successful Trajectories (");

    enum Mode { PATCH, REWRITE, FULL_REWRITE }

    static Mode mode(String system, String user) {
        if (SimText.hasHeading(user, "## Update Format")) return Mode.FULL_REWRITE;
        if (SimText.hasHeading(user, "## Suggestions Budget") || system.contains("revise_suggestions")) return Mode.REWRITE;
        return Mode.PATCH;
    }

    String errorAnalyst(String system, String user) {
        String skill = SimText.section(user, "## Current Skill", AFTER_SKILL);
        int budget = SimText.intAfter(user, "at most L=(\\d+)", 4);
        Mode mode = mode(system, user);
        boolean bundle = mode == Mode.PATCH && io.skillopt4j.env.SkillBundle.isAgentSkill(skill);
        SplittableRandom r = SimText.rng(seed, "analyst_error", user);
        Trajectories batch = trajectories(user, "## Failed Trajectories (");
        List<Map.Entry<HouseCategory, Integer>> ranked = batch.byCategory().entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).toList();

        List<Map<String, Object>> summary = new ArrayList<>();
        List<Proposal> proposals = new ArrayList<>();
        List<String> lapses = new ArrayList<>();
        for (Map.Entry<HouseCategory, Integer> e : ranked) {
            HouseCategory c = e.getKey();
            boolean missing = bundle ? BundleReading.style(c, skill) != HouseCategory.Style.HOUSE
                    : !c.ruleIn(skill) || c.styleIn(skill) != HouseCategory.Style.HOUSE;
            summary.add(Json.obj("failure_type", c.key() + "_format", "count", e.getValue(), "description", missing
                    ? "Answers to " + c.key() + " questions used a generic format; the gold answers follow a house convention the skill does not state."
                    : "The skill states the " + c.key() + " rule but the answer ignored it (execution slip)."));
            if (!missing) { lapses.add("Re-read the house " + c.key() + " rule before answering " + c.key() + " questions."); continue; }
            if (skill.contains(c.decoy())) proposals.add(new Proposal(c, "replace", c.decoy(), c.rule(), e.getValue()));
            else proposals.add(new Proposal(c, "append", "", "- " + (r.nextDouble() < b.vagueRate() ? c.vague() : c.rule()), e.getValue()));
        }
        // imperfections take a random slot, so a truncation to the budget can drop a good edit instead
        if (!ranked.isEmpty() && r.nextDouble() < b.harmRate()) {
            HouseCategory victim = ranked.get(r.nextInt(ranked.size())).getKey();
            proposals.add(r.nextInt(Math.min(budget, proposals.size()) + 1), new Proposal(victim, "append", "", "- " + victim.decoy(), 1));
        }
        HouseCategory stated = Arrays.stream(HouseCategory.values()).filter(c -> skill.contains(c.rule())).findFirst().orElse(null);
        if (r.nextDouble() < b.redundantRate() && stated != null)
            proposals.add(r.nextInt(Math.min(budget, proposals.size()) + 1), new Proposal(stated, "append", "", "- " + stated.rule(), 1));
        if (bundle) proposals = BundleProposals.place(proposals, skill, r);
        if (mode != Mode.FULL_REWRITE && proposals.size() > budget) proposals = new ArrayList<>(proposals.subList(0, budget));

        Map<String, Object> out = reply(batch, "failure_summary", summary, patch(mode, skill, proposals, "failure",
                proposals.isEmpty() ? "The failures are execution slips; the skill already states the relevant rules."
                        : "Failures cluster by house convention; each edit states the convention the gold answers follow."));
        if (system.contains("EXECUTION_LAPSE") && !lapses.isEmpty()) out.put("appendix_notes", lapses);
        return SimText.fenced(out);
    }

    String successAnalyst(String system, String user) {
        String skill = SimText.section(user, "## Current Skill", AFTER_SKILL);
        Mode mode = mode(system, user);
        SplittableRandom r = SimText.rng(seed, "analyst_success", user);
        Trajectories batch = trajectories(user, "## Successful Trajectories (");
        Map<HouseCategory, Integer> counts = batch.byCategory();
        List<String> patterns = new ArrayList<>();
        counts.forEach((c, n) -> patterns.add(c.ruleIn(skill)
                ? "Followed the stated house rule for " + c.key() + " answers (" + n + " tasks)."
                : "The usual format happened to match for " + c.key() + " (" + n + " tasks)."));
        List<Proposal> proposals = new ArrayList<>();
        if (!skill.contains(REINFORCE) && r.nextDouble() < b.reinforceRate())
            proposals.add(new Proposal(null, "append", "", REINFORCE, Math.max(1, batch.size())));
        // over-generalising from successes: a "refinement" that actually changes a working convention
        if (!counts.isEmpty() && r.nextDouble() < b.harmRate() / 2) {
            HouseCategory c = List.copyOf(counts.keySet()).get(r.nextInt(counts.size()));
            proposals.add(new Proposal(c, "append", "", "- " + c.decoy(), 1));
        }
        return SimText.fenced(reply(batch, "success_patterns", patterns, patch(mode, skill, proposals, "success",
                proposals.isEmpty() ? "Successes follow rules the skill already states; no change needed."
                        : "Successes come from following stated rules; reinforce that.")));
    }

    /** An analyst's reply, as upstream's prompts ask for it: the batch size, what it found ({@code key}), the patch. */
    private static Map<String, Object> reply(Trajectories batch, String key, Object findings, Map<String, Object> patch) {
        return Json.obj("batch_size", batch.size(), key, findings, "patch", patch);
    }

    /** Immutable. The trajectories of an analyst prompt: how many, and how many per house category. */
    record Trajectories(int size, Map<HouseCategory, Integer> byCategory) {}

    /** Reads the {@code ### Trajectory} blocks after {@code heading}. */
    static Trajectories trajectories(String user, String heading) {
        Map<HouseCategory, Integer> counts = new LinkedHashMap<>();
        String[] blocks = user.substring(user.indexOf(heading)).split("(?m)^### Trajectory ");
        for (int i = 1; i < blocks.length; i++) SimText.category(blocks[i]).ifPresent(c -> counts.merge(c, 1, Integer::sum));
        return new Trajectories(blocks.length - 1, counts);
    }

    /** One proposed change: the category it serves (null for a general one), an edit op, target and content, the bundle file (null: none named). */
    record Proposal(HouseCategory category, String op, String target, String content, int support, String file) {
        Proposal(HouseCategory category, String op, String target, String content, int support) { this(category, op, target, content, support, null); }

        Proposal in(String f) { return new Proposal(category, op, target, content, support, f); }
    }

    /** Share of a bundle analyst's new conventions written into SKILL.md's body instead of the reference. */
    static final double BODY_SHARE = 0.25;

    static Map<String, Object> patch(Mode mode, String skill, List<Proposal> ps, String source, String reasoning) {
        Map<String, Object> p = Json.obj("reasoning", reasoning);
        List<Map<String, Object>> items = new ArrayList<>();
        switch (mode) {
            case PATCH -> ps.forEach(x -> {
                Map<String, Object> e = Json.obj("op", x.op());
                if (x.file() != null) e.put("file", x.file());
                if (!x.target().isEmpty()) e.put("target", x.target());
                e.put("content", x.content());
                items.add(e);
            });
            case REWRITE -> ps.forEach(x -> items.add(Json.obj("type", x.op().equals("replace") ? "clarify" : "add_rule",
                    "title", x.category() == null ? "Reinforce house rules" : "House rule for " + x.category().key(),
                    "motivation", x.support() + " trajectories depend on this convention.", "instruction", x.op().equals("replace")
                            ? "Replace the line \"" + x.target() + "\" with: " + x.content() : x.content().replaceFirst("^- ", ""),
                    "priority_hint", x.support() > 1 ? "high" : "medium", "support_count", x.support())));
            case FULL_REWRITE -> {
                if (!ps.isEmpty()) {
                    String s = skill;
                    List<String> changes = new ArrayList<>();
                    for (Proposal x : ps) {
                        s = x.op().equals("replace") ? s.replace(x.target(), x.content()) : SkillText.addLine(s, x.content());
                        changes.add((x.op().equals("replace") ? "replaced a rule: " : "added: ") + x.content().replaceFirst("^- ", ""));
                    }
                    items.add(Json.obj("title", "Skill with " + ps.size() + " house-rule change(s)", "change_summary", changes,
                            "new_skill", s, "support_count", ps.stream().mapToInt(Proposal::support).sum(), "source_type", source));
                }
            }
        }
        p.put(switch (mode) { case PATCH -> "edits"; case REWRITE -> "revise_suggestions"; case FULL_REWRITE -> "skill_candidates"; }, items);
        return p;
    }
}
