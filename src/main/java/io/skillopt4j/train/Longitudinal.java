package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.PyRandom;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Thread-safe. Upstream's {@code build_comparison_pairs}: the same tasks with the previous and current skill. */
record Longitudinal(TrainSettings settings, DataLoader data, Rollout rollout, RunWriter writer) {
    /** Immutable. One pair: the slim JSON map (as persisted) plus both rendered trajectories. */
    public record Pair(Map<String, Object> json, String prevTrajectory, String currTrajectory) {
        public String category() { return String.valueOf(json.get("category")); }
    }

    /** Immutable. Kept pairs (policy applied), all evaluated pairs, and the mean hard of both rollouts. */
    public record Pairs(List<Pair> kept, List<Pair> all, double prevHard, double currHard) {}

    /** Samples, rolls out both skills under {@code dir}, builds and saves the pairs. */
    public Pairs build(int epoch, String prevSkill, String currSkill, Path dir) {
        int n = settings.slowUpdateSamples();
        long seed = seed(epoch);
        BatchSpec batch = sample(epoch);
        Rollout.Outcome prev = rollout.run(batch, prevSkill, dir.resolve("rollout_prev"), false);
        Rollout.Outcome curr = rollout.run(batch, currSkill, dir.resolve("rollout_curr"), false);
        List<Pair> all = pairs(batch.items(), prev, curr, dir.resolve("rollout_prev"), dir.resolve("rollout_curr"));
        List<Pair> kept = filter(all);
        if (settings.pairPolicy().equals("changed") && kept.size() < n) {
            Set<String> seen = new HashSet<>(batch.items().stream().map(Item::id).toList());
            List<Item> pool = new PyRandom(seed).shuffled(data.split("train"));
            for (int idx = 0; idx < pool.size() && kept.size() < n; idx++) {
                Item item = pool.get(idx);
                if (!seen.add(item.id())) continue;
                BatchSpec one = new BatchSpec("train", "train", seed + idx + 1, List.of(item));
                String safe = RunPaths.safeId(item.id());
                Path pd = dir.resolve("rollout_prev").resolve("topup").resolve(safe), cd = dir.resolve("rollout_curr").resolve("topup").resolve(safe);
                List<Pair> p = pairs(one.items(), rollout.run(one, prevSkill, pd, false), rollout.run(one, currSkill, cd, false), pd, cd);
                all.addAll(p);
                kept.addAll(filter(p));
            }
        }
        if (kept.size() > n) kept = new ArrayList<>(kept.subList(0, n));
        // no disk flush (on the slow update's critical path): a replay that finds them unreadable samples afresh, as upstream
        writer.artefact(dir.resolve("comparison_pairs.json"), slim(kept));
        if (!settings.pairPolicy().equals("mixed")) writer.artefact(dir.resolve("comparison_pairs_all.json"), slim(all));
        return new Pairs(kept, all, prev.hard(), curr.hard());
    }

    /** The train tasks of an epoch's comparison, seeded by the epoch. */
    BatchSpec sample(int epoch) {
        return data.buildTrainBatch(settings.slowUpdateSamples(), seed(epoch));
    }

    /** The comparison's seed (upstream: seed + epoch × 2000); also seeds the top-up pool's shuffle. */
    private long seed(int epoch) { return settings.seed() + epoch * 2000L; }

    /** Queues the previous skill's side of epoch {@code epoch}'s comparison under {@code dir} on {@code bg}. */
    void prefetch(int epoch, String prevSkill, Path dir, BackgroundRollouts bg) {
        bg.submit(sample(epoch), prevSkill, dir.resolve("rollout_prev"), epoch);
    }

    private List<Pair> filter(List<Pair> all) {
        return all.stream().filter(p -> switch (settings.pairPolicy()) {
            case "changed" -> p.category().equals("improved") || p.category().equals("regressed");
            case "unchanged" -> p.category().equals("persistent_fail") || p.category().equals("stable_success");
            default -> true;
        }).collect(java.util.stream.Collectors.toCollection(ArrayList::new));
    }

    /** The pairs of rows read back: their trajectories from the folders only. */
    static List<Pair> pairs(List<Item> items, List<RolloutResult> prev, List<RolloutResult> curr, Path prevDir, Path currDir) {
        return pairs(items, new Rollout.Outcome(prev, 0, 0, 0, null), new Rollout.Outcome(curr, 0, 0, 0, null), prevDir, currDir);
    }

    /** The pairs, with trajectories from the rollouts' traces where they hold them. */
    static List<Pair> pairs(List<Item> items, Rollout.Outcome prev, Rollout.Outcome curr, Path prevDir, Path currDir) {
        Map<String, RolloutResult> pm = byId(prev.results()), cm = byId(curr.results());
        List<Pair> out = new ArrayList<>();
        for (Item item : items) {
            RolloutResult p = pm.get(item.id()), c = cm.get(item.id());
            boolean pp = p != null && p.hard() != 0, cp = c != null && c.hard() != 0;
            String cat = !pp && cp ? "improved" : pp && !cp ? "regressed" : !pp ? "persistent_fail" : "stable_success";
            String task = java.util.stream.Stream.of("question", "task_description", "instruction").map(item::str)
                    .filter(t -> !t.isEmpty()).findFirst().orElse(item.id());
            Map<String, Object> m = Json.obj("id", item.id(), "task", task, "category", cat,
                    "prev", side(p), "curr", side(c));
            out.add(new Pair(m, trajectory(prevDir.resolve("predictions"), item.id(), prev.traces().get(item.id())),
                    trajectory(currDir.resolve("predictions"), item.id(), curr.traces().get(item.id()))));
        }
        return out;
    }

    private static Map<String, RolloutResult> byId(List<RolloutResult> rs) {
        return rs.stream().collect(java.util.stream.Collectors.toMap(RolloutResult::id, r -> r, (a, b) -> b));
    }

    /** One side of a pair as upstream builds it: a missing result is a failure with answer "N/A" and no reason. */
    static Map<String, Object> side(RolloutResult r) {
        Map<String, Object> f = r == null ? Map.of() : r.fields();
        Object answer = f.containsKey("predicted_answer") ? f.get("predicted_answer") : f.getOrDefault("answer", "N/A");
        return Json.obj("hard", r != null && r.hard() != 0 ? 1 : 0, "soft", r == null ? 0.0 : r.soft(),
                "predicted_answer", answer, "fail_reason", f.getOrDefault("fail_reason", ""));
    }

    /** Pairs read back from a comparison_pairs.json (no trajectories; hard scores unknown). */
    @SuppressWarnings("unchecked")
    static Pairs reloaded(List<Map<String, Object>> stored) {
        List<Pair> ps = ((List<?>) stored).stream().filter(o -> o instanceof Map<?, ?> m && m.get("prev") instanceof Map
                && m.get("curr") instanceof Map).map(o -> new Pair((Map<String, Object>) o, "", "")).toList();
        return new Pairs(ps, ps, 0, 0);
    }

    static List<Map<String, Object>> slim(List<Pair> pairs) { return pairs.stream().map(Pair::json).toList(); }

    /** Renders the comparison as upstream's {@code format_comparison_text}: counts, then each category's pairs. */
    @SuppressWarnings("unchecked")
    public static String comparison(List<Pair> pairs) {
        String[][] sections = {{"regressed", "Regressions (right→wrong) — HIGHEST PRIORITY"},
                {"persistent_fail", "Persistent Failures (wrong→wrong)"}, {"improved", "Improvements (wrong→right)"},
                {"stable_success", "Stable Successes (right→right)"}};
        List<String> parts = new ArrayList<>();
        parts.add("## Longitudinal Comparison Summary\nTotal samples: " + pairs.size() + "\n"
                + "- Improved (wrong→right): " + count(pairs, "improved") + "\n"
                + "- Regressed (right→wrong): " + count(pairs, "regressed") + "\n"
                + "- Persistent failures (wrong→wrong): " + count(pairs, "persistent_fail") + "\n"
                + "- Stable successes (right→right): " + count(pairs, "stable_success") + "\n");
        for (String[] sec : sections) {
            List<Pair> ps = pairs.stream().filter(p -> p.category().equals(sec[0])).toList();
            if (ps.isEmpty()) {
                parts.add("### " + sec[1] + "\n(none)\n");
                continue;
            }
            StringBuilder b = new StringBuilder("### ").append(sec[1]);
            for (Pair p : ps) {
                Map<String, Object> pr = (Map<String, Object>) p.json().get("prev"), cu = (Map<String, Object>) p.json().get("curr");
                b.append("\n\n#### Task ").append(p.json().get("id")).append(": ").append(p.json().get("task"))
                        .append("\n- Previous epoch: ").append(line(pr)).append("\n- Current epoch: ").append(line(cu));
                String cf = Trajectories.text(cu.get("fail_reason")), pf = Trajectories.text(pr.get("fail_reason"));
                if (!cf.isEmpty()) b.append("\n- Current fail reason: ").append(cf);
                if (!pf.isEmpty() && !Select.truthy(pr.get("hard"))) b.append("\n- Previous fail reason: ").append(pf);
                if (!sec[0].equals("stable_success")) {
                    if (!p.prevTrajectory().isEmpty()) b.append("\n\n**Previous epoch's trajectory:**\n```\n").append(p.prevTrajectory()).append("\n```");
                    if (!p.currTrajectory().isEmpty()) b.append("\n\n**Current epoch's trajectory:**\n```\n").append(p.currTrajectory()).append("\n```");
                }
            }
            parts.add(b.toString());
        }
        return String.join("\n\n", parts);
    }

    private static long count(List<Pair> pairs, String category) {
        return pairs.stream().filter(p -> p.category().equals(category)).count();
    }

    private static String line(Map<String, Object> side) {
        double soft = side.get("soft") instanceof Number n ? n.doubleValue() : 0.0;
        return (Select.truthy(side.get("hard")) ? "PASS" : "FAIL") + " (soft=" + StepRecord.fixed(soft, 2)
                + ") — answer: " + Trajectories.text(side.get("predicted_answer"));
    }

    /** A side's trajectory text as upstream reads it ({@code trace} if not null); a note if unusable. */
    static String trajectory(Path predictionDir, String id, io.skillopt4j.env.ItemTrace trace) {
        Object o;
        try { o = Trajectories.conversationJson(predictionDir, id, trace); } catch (RuntimeException e) { return "(trajectory read error)"; }
        if (o == null) return "(trajectory not available)";
        if (!(o instanceof List<?> l)) return "(trajectory read error)";
        if (l.isEmpty()) return "(empty trajectory)";
        return Trajectories.render(l.stream().filter(e -> e instanceof Map<?, ?>).map(Object.class::cast).toList());
    }
}
