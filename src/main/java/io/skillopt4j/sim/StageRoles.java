package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;

import io.skillopt4j.env.houserules.HouseCategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


/**
 * Immutable. The simulated optimizer's non-analyst stages (merge, ranking, learning rate, rewrite, slow update, meta
 * skill, appendix consolidation), each replying with JSON of its upstream shape.
 */
record StageRoles(long seed) {
    private static final Pattern POOL_LINE = Pattern.compile("(?m)^\\[(\\d+)\\] (.*?)support=(\\d+)\\s*$");

    String merge(String user, String heading, boolean fin) {
        List<Object> patches = SimText.jsonArrayAfter(user, user.indexOf(heading));
        if (patches == null) return "I could not read the patches to merge.";
        String key = "edits";
        for (Object p : patches)
            if (p instanceof Map<?, ?> m)
                for (String k : List.of("revise_suggestions", "skill_candidates")) if (m.containsKey(k)) key = k;
        Map<String, Map<String, Object>> merged = new LinkedHashMap<>();
        int in = 0;
        for (Object p : patches) {
            if (!(p instanceof Map<?, ?> m) || !(m.get(key) instanceof List<?> items)) continue;
            for (Object o : items) {
                if (!(o instanceof Map<?, ?> raw)) continue;
                in++;
                @SuppressWarnings("unchecked") Map<String, Object> item = new LinkedHashMap<>((Map<String, Object>) raw);
                String dedupe = switch (key) {
                    case "edits" -> item.getOrDefault("file", "") + "|" + item.getOrDefault("op", "append") + "|" + item.getOrDefault("target", "") + "|" + SimText.canonical(String.valueOf(item.get("content")));
                    case "revise_suggestions" -> SimText.canonical(String.valueOf(item.get("instruction")));
                    default -> SimText.canonical(String.valueOf(item.get("new_skill")));
                };
                item.put("support_count", item.get("support_count") instanceof Number n ? n.intValue() : 1);
                item.putIfAbsent("source_type", String.valueOf(m.get("source_type") == null ? "failure" : m.get("source_type")));
                merged.merge(dedupe, item, (prev, again) -> Json.put(prev, "support_count",
                        ((Number) prev.get("support_count")).intValue() + (int) again.get("support_count")));
            }
        }
        List<Map<String, Object>> out = new ArrayList<>(merged.values());
        if (!fin) out.sort(Comparator.comparingInt(x -> -((Number) x.get("support_count")).intValue()));
        if (key.equals("skill_candidates") && out.size() > 1)
            out = List.of(java.util.Collections.min(out, Comparator.comparingInt(x -> -SkillText.rulesIn(String.valueOf(x.get("new_skill"))))));
        return SimText.fenced(Json.obj("reasoning", "Merged " + in + " item(s) into " + out.size()
                + ": duplicates combined and their support summed" + (fin ? "; failure-driven items first." : "; ordered by support."), key, out));
    }

    String ranking(String user) {
        int budget = SimText.intAfter(user, "budget=(\\d+)", 1);
        String skill = SimText.section(user, "## Current Skill", List.of("## Edits Pool (", "## Suggestions Pool ("));
        record Row(int index, int support, boolean restates, double jitter) {}
        java.util.SplittableRandom r = SimText.rng(seed, "ranking", user); // like a model, ties are broken unpredictably
        List<Row> rows = new ArrayList<>();
        Matcher m = POOL_LINE.matcher(user);
        while (m.find()) {
            String body = m.group(2);
            boolean restates = Arrays.stream(HouseCategory.values()).anyMatch(c -> body.contains(c.rule()) && skill.contains(c.rule()))
                    || body.contains(AnalystRole.REINFORCE.substring(2)) && skill.contains(AnalystRole.REINFORCE);
            rows.add(new Row(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(3)), restates, r.nextDouble()));
        }
        rows.sort(Comparator.comparing(Row::restates).thenComparing(Row::support, Comparator.reverseOrder()).thenComparing(Row::jitter));
        List<Integer> sel = rows.stream().limit(budget).map(Row::index).toList();
        return SimText.fenced(Json.obj("reasoning", "Chose the " + sel.size()
                + " edits with the most supporting trajectories; restatements of existing rules last.", "selected_indices", sel));
    }

    String learningRate(String user) {
        int items = SimText.intAfter(user, "proposed_update_items=(\\d+)", 2);
        Matcher h = Pattern.compile("rollout_hard=([0-9.]+)").matcher(user);
        double hard = h.find() ? Double.parseDouble(h.group(1)) : 0.5;
        int lr = Math.min(items, hard < 0.5 ? 3 : hard < 0.8 ? 2 : 1);
        return SimText.fenced(Json.obj("learning_rate", lr, "reasoning", String.format(java.util.Locale.ROOT, "rollout hard=%.2f: %s", hard,
                hard < 0.5 ? "many missing conventions, take larger steps" : "mostly right, take small careful steps"),
                "confidence", items == 0 ? "low" : "medium", "risk_notes", List.of("A wrong convention would regress every task of its category.")));
    }

    String rewrite(String user) {
        String s = SimText.section(user, "## Current Skill", List.of("## Selected Revise Suggestions ("));
        List<Object> sugg = SimText.jsonArrayAfter(user, user.indexOf("## Selected Revise Suggestions ("));
        if (sugg == null) return "I could not read the suggestions.";
        List<String> changes = new ArrayList<>();
        Pattern replace = Pattern.compile("^Replace the line \"(.*)\" with: (.*)$", Pattern.DOTALL);
        for (Object o : sugg) {
            if (!(o instanceof Map<?, ?> m)) continue;
            String instr = String.valueOf(m.get("instruction")).strip();
            Matcher rm = replace.matcher(instr);
            if (rm.matches() && s.contains(rm.group(1))) { s = s.replace(rm.group(1), rm.group(2)); changes.add("replaced: " + rm.group(1)); }
            else if (!instr.isEmpty() && !s.contains(instr)) { s = SkillText.addLine(s, "- " + instr); changes.add("added: " + instr); }
        }
        return SimText.fenced(Json.obj("reasoning", "Applied " + changes.size() + " of " + sugg.size()
                + " suggestions; kept everything else verbatim.", "change_summary", changes, "new_skill", s));
    }

    /** Slow update and meta skill both read the longitudinal comparison; {@code meta} picks the stage. */
    String epochReflection(String user, boolean meta) {
        String cmp = SimText.section(user, "## Longitudinal Comparison", List.of("## Output", "## Instructions"));
        Map<String, Map<HouseCategory, Integer>> bySection = new LinkedHashMap<>();
        String current = "other";
        java.util.Set<String> counted = new java.util.HashSet<>(); // an id is shown more than once per pair
        for (String line : cmp.split("\n")) {
            String l = line.toLowerCase(java.util.Locale.ROOT);
            if (l.startsWith("#") || l.startsWith("**") || l.endsWith(":")) {
                if (l.contains("regress")) current = "regressed";
                else if (l.contains("persistent")) current = "persistent";
                else if (l.contains("improve")) current = "improved";
                else if (l.contains("stable")) current = "stable";
            }
            Map<HouseCategory, Integer> sec = bySection.computeIfAbsent(current, k -> new LinkedHashMap<>());
            for (Map.Entry<String, HouseCategory> id : SimText.idsIn(line).entrySet())
                if (counted.add(current + "/" + id.getKey())) sec.merge(id.getValue(), 1, Integer::sum);
        }
        Map<HouseCategory, Integer> weak = new LinkedHashMap<>();
        for (String k : List.of("regressed", "persistent")) bySection.getOrDefault(k, Map.of()).forEach((c, n) -> weak.merge(c, n, Integer::sum));
        List<Map.Entry<HouseCategory, Integer>> top = weak.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).toList();
        StringBuilder sb = new StringBuilder();
        if (meta) {
            sb.append("- Propose one concrete convention per failing category, stated with an example; vague reminders do not change answers.\n");
            sb.append("- Reject edits that introduce a new format for a category that is not failing; they regress whole categories.\n");
            if (!top.isEmpty()) sb.append("- Categories still failing most: ").append(top.stream().limit(3)
                    .map(e -> e.getKey().key() + " (" + e.getValue() + ")").collect(java.util.stream.Collectors.joining(", "))).append(".\n");
            return SimText.fenced(Json.obj("reasoning", "Edits that stated a concrete convention helped; format changes for passing categories hurt.",
                    "meta_skill_content", sb.toString().strip()));
        }
        Object[] counts = java.util.stream.Stream.of("improved", "regressed", "persistent", "stable")
                .map(k -> bySection.getOrDefault(k, Map.of()).values().stream().mapToInt(Integer::intValue).sum()).toArray();
        sb.append(String.format("- Last epoch: %d improved, %d regressed, %d persistent failures, %d stable successes.%n", counts));
        for (Map.Entry<HouseCategory, Integer> e : top.subList(0, Math.min(2, top.size())))
            sb.append("- Still failing on ").append(e.getKey().key()).append(" (").append(e.getValue()).append(" tasks). ")
                    .append(e.getKey().rule()).append('\n');
        if (top.isEmpty()) sb.append("- No regressions or persistent failures: keep applying every stated house rule.\n");
        return SimText.fenced(Json.obj("reasoning", top.isEmpty() ? "Nothing regressed." : "Guidance targets the categories that regressed or kept failing.",
                "slow_update_content", sb.toString().strip()));
    }

    String consolidateAppendix(String user) {
        String notes = SimText.section(user, "## Current Execution Notes", List.of("## "));
        Map<String, String> unique = new LinkedHashMap<>();
        for (String line : notes.split("\n")) {
            String t = line.strip().replaceFirst("^([-*]|\\d+\\.) +", "");
            if (!t.isEmpty()) unique.putIfAbsent(SimText.canonical(t), t);
        }
        List<String> out = new ArrayList<>(unique.values());
        if (out.size() >= 2 && out.size() == notes.split("\n").length) {
            String last = out.remove(out.size() - 1);
            out.set(out.size() - 1, out.get(out.size() - 1).replaceAll("[.\\s]+$", "") + "; " + last);
        }
        return SimText.fenced(Map.of("appendix_notes", out));
    }
}
