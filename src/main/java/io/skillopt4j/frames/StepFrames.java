package io.skillopt4j.frames;

import io.skillopt4j.internal.Json;
import io.skillopt4j.run.EpochArtifacts;
import io.skillopt4j.run.RunSnapshot;
import io.skillopt4j.run.StepArtifacts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Stateless. Builds the steps, epochs and edits frames from a {@link RunSnapshot} (columns in docs/frames.md). */
final class StepFrames {
    static final List<String> TIMING = List.of("rollout_s", "reflect_s", "aggregate_s", "select_s", "update_s", "evaluate_s");
    /** History fields a steps column copies as they are. */
    private static final List<String> AS_IS = List.of("epoch", "step_in_epoch", "selection_hard", "selection_soft",
            "candidate_gate_score", "current_score", "best_score", "best_step", "n_patches", "n_edits_merged",
            "skill_len", "gate_gain", "gate_p_value");
    /** Steps columns copied from a history field of another name. */
    private static final Map<String, String> RENAMED = Map.of("n_rollouts", "rollout_n", "train_hard", "rollout_hard",
            "train_soft", "rollout_soft", "n_edits_selected", "n_edits_ranked", "seconds", "wall_time_s");
    private static final List<String> PAYLOAD_KEYS = List.of("edits", "revise_suggestions", "skill_candidates");

    private StepFrames() {}

    static Frame steps(RunSnapshot run) {
        RowBuilder b = new RowBuilder()
                .ints("epoch", "step", "step_in_epoch").strings("action").bools("accepted", "new_best")
                .ints("edit_budget", "n_rollouts").doubles("train_hard", "train_soft", "selection_hard", "selection_soft",
                        "candidate_gate_score", "current_score", "best_score").ints("best_step", "n_patches",
                        "n_edits_proposed", "n_edits_merged", "n_edits_selected", "n_edits_applied", "n_edits_unmatched")
                .ints("skill_len").longs("prompt_tokens", "completion_tokens", "tokens")
                .doubles("seconds").doubles(TIMING.toArray(String[]::new))
                .doubles("selection_hard_low", "selection_hard_high", "gate_gain", "gate_gain_low", "gate_gain_high", "gate_p_value");
        for (Map<String, Object> h : run.history()) {
            int step = intOf(h.get("step"));
            StepArtifacts art = run.step(step);
            String action = str(h.get("action"));
            Map<String, Object> apply = map(h.get("edit_apply_summary"));
            long[] tok = tokens(map(h.get("tokens")));
            Map<String, Object> r = Json.obj("step", step, "action", action, "accepted", action.contains("accept"),
                    "new_best", action.equals("accept_new_best")
                            || (action.contains("accept") && h.get("best_step") instanceof Number n && n.intValue() == step),
                    // one name for one concept: upstream calls the edit budget learning_rate (config, LR decision)
                    "edit_budget", h.get("edit_budget") != null ? h.get("edit_budget") : map(h.get("lr_decision")).get("learning_rate"),
                    "n_edits_proposed", art == null || art.patches().isEmpty() ? null : proposed(art),
                    "n_edits_applied", apply.get("applied"), "n_edits_unmatched", unmatched(art, apply),
                    "prompt_tokens", tok[0], "completion_tokens", tok[1], "tokens", tok[0] + tok[1]);
            for (String k : AS_IS) r.put(k, h.get(k));
            RENAMED.forEach((col, field) -> r.put(col, h.get(field)));
            Map<String, Object> timing = map(h.get("timing"));
            for (String t : TIMING) r.put(t, timing.get(t));
            if (h.get("selection_hard") != null) {
                io.skillopt4j.train.stats.Interval ci = Intervals.selection(run, step);
                Json.put(r, "selection_hard_low", Intervals.low(ci), "selection_hard_high", Intervals.high(ci));
            }
            // the honest gate's paired gain over the current skill: its interval
            List<?> gi = h.get("gate_interval") instanceof List<?> l && l.size() == 2 ? l : List.of();
            Json.put(r, "gate_gain_low", gi.isEmpty() ? null : gi.get(0), "gate_gain_high", gi.isEmpty() ? null : gi.get(1));
            b.add(r);
        }
        Map<String, Object> after = Headline.afterStepsRow(run);
        if (after != null) b.add(after);
        String footer = b.counts(run.history().size() + " steps" + (after == null ? "" : " + " + after.get("action"))) + Headline.suffix(run);
        if (!run.finished()) footer += " · " + run.status();
        return b.build("steps", footer);
    }

    static Frame epochs(RunSnapshot run) {
        RowBuilder b = new RowBuilder()
                .ints("epoch", "n_steps", "first_step", "last_step", "accepts", "rejects", "skips")
                .doubles("mean_train_hard", "mean_selection_hard", "current_score_end", "best_score_end", "best_score_end_low",
                        "best_score_end_high", "best_so_far")
                .longs("tokens").doubles("seconds")
                .strings("slow_update_action").doubles("slow_update_prev_hard", "slow_update_curr_hard")
                .ints("slow_update_chars", "n_improved", "n_regressed", "n_persistent_fail", "n_stable_success")
                .strings("meta_skill_action").ints("meta_skill_chars");
        TreeMap<Integer, List<Map<String, Object>>> byEpoch = run.history().stream()
                .collect(Collectors.groupingBy(h -> intOf(h.get("epoch")), TreeMap::new, Collectors.toList()));
        Map<Integer, EpochArtifacts> arts = new HashMap<>();
        for (EpochArtifacts e : run.epochs()) {
            arts.put(e.epoch(), e);
            byEpoch.computeIfAbsent(e.epoch(), k -> new ArrayList<>());
        }
        double bestSoFar = Double.NaN;
        for (Map.Entry<Integer, List<Map<String, Object>>> e : byEpoch.entrySet()) {
            List<Map<String, Object>> hs = e.getValue();
            Map<String, Object> r = Json.obj("epoch", e.getKey(), "n_steps", hs.size());
            if (!hs.isEmpty()) {
                Map<String, Object> last = hs.get(hs.size() - 1);
                Json.put(r, "first_step", hs.get(0).get("step"), "last_step", last.get("step"),
                        "current_score_end", last.get("current_score"), "best_score_end", last.get("best_score"));
                // the best skill's selection rows: an interval only when their mean is the score shown (hard gate metric)
                if (last.get("best_score") instanceof Number bs) {
                    io.skillopt4j.train.stats.Interval ci = Intervals.bestAfter(run, intOf(last.get("best_step")));
                    boolean same = Intervals.isOf(ci, bs.doubleValue());
                    Json.put(r, "best_score_end_low", same ? ci.low() : null, "best_score_end_high", same ? ci.high() : null);
                }
            }
            int acc = 0, rej = 0, skip = 0;
            double trainSum = 0, selSum = 0, secs = 0;
            int sel = 0;
            long tok = 0;
            for (Map<String, Object> h : hs) {
                String a = str(h.get("action"));
                if (a.contains("accept")) acc++;
                else if (a.equals("reject")) rej++;
                else if (a.startsWith("skip")) skip++;
                trainSum += dbl(h.get("rollout_hard"));
                if (h.get("selection_hard") instanceof Number s) { selSum += s.doubleValue(); sel++; }
                long[] t = tokens(map(h.get("tokens")));
                tok += t[0] + t[1];
                secs += dbl(h.get("wall_time_s"));
                if (h.get("best_score") instanceof Number bsc) bestSoFar = Double.isNaN(bestSoFar) ? bsc.doubleValue() : Math.max(bestSoFar, bsc.doubleValue());
            }
            Json.put(r, "accepts", acc, "rejects", rej, "skips", skip,
                    "mean_train_hard", hs.isEmpty() ? null : trainSum / hs.size(), "mean_selection_hard", sel == 0 ? null : selSum / sel,
                    "best_so_far", Double.isNaN(bestSoFar) ? null : bestSoFar, "tokens", tok, "seconds", Math.round(secs * 10) / 10.0);
            EpochArtifacts ea = arts.get(e.getKey());
            if (ea != null) {
                Map<String, Object> slow = ea.slowResult();
                Json.put(r, "slow_update_action", slow.isEmpty() ? null : str(slow.get("action")), "slow_update_prev_hard",
                        slow.get("prev_hard"), "slow_update_curr_hard", slow.get("curr_hard"),
                        "slow_update_chars", chars(slow.get("slow_update_content")));
                Map<String, Integer> cat = new HashMap<>();
                for (Map<String, Object> p : ea.comparisonPairs()) cat.merge(str(p.get("category")), 1, Integer::sum);
                for (String k : List.of("improved", "regressed", "persistent_fail", "stable_success"))
                    r.put("n_" + k, cat.isEmpty() ? null : cat.getOrDefault(k, 0));
                Map<String, Object> meta = ea.metaSkillResult();
                Json.put(r, "meta_skill_action", meta.isEmpty() ? null : str(meta.get("action")),
                        "meta_skill_chars", chars(meta.get("meta_skill_content")));
            }
            b.add(r);
        }
        return b.build("epochs", b.counts(byEpoch.size() + " epochs") + Headline.suffix(run));
    }

    /** One row per pre-selection pool item of each step: its rank, apply status and the minibatch that proposed it. */
    static Frame edits(RunSnapshot run) {
        RowBuilder b = new RowBuilder()
                .ints("epoch", "step", "index").strings("op", "file", "target", "content", "source_type").ints("support_count")
                .strings("source_minibatch").ints("rank").bools("selected").strings("status").bools("applied")
                .strings("step_action");
        Map<Integer, Map<String, Object>> hist = new HashMap<>();
        for (Map<String, Object> h : run.history()) hist.put(intOf(h.get("step")), h);
        for (StepArtifacts s : run.steps()) {
            List<Object> pool = payload(s.mergedPatch());
            List<Object> ranked = payload(s.rankedEdits());
            if (pool.isEmpty()) pool = ranked;
            if (pool.isEmpty()) continue;
            Map<String, Object> rec = hist.getOrDefault(s.step(), s.record());
            Map<Integer, String> status = new HashMap<>();
            for (Map<String, Object> row : s.editApplyReport())
                if (row.get("index") instanceof Number n) status.put(n.intValue(), str(row.get("status")));
            Map<String, String> origin = origins(s);
            boolean[] taken = new boolean[ranked.size()];
            int idx = 0;
            for (Object o : pool) {
                idx++;
                Map<String, Object> e = map(o);
                Integer rank = null;
                for (int k = 0; k < ranked.size(); k++) {
                    if (!taken[k] && key(e).equals(key(map(ranked.get(k))))) { rank = k + 1; taken[k] = true; break; }
                }
                String st = rank == null ? "not_selected" : status.getOrDefault(rank, "");
                // file: a bundle edit's file; "" for a single-file skill (SKILL.md)
                b.row(rec.get("epoch"), s.step(), idx, first(e, "op", "type"), first(e, "file"),
                        first(e, "target", "title"), first(e, "content", "instruction", "new_skill"),
                        str(e.get("source_type")), e.get("support_count"), origin.getOrDefault(key(e), ""), rank,
                        rank != null, st, st.startsWith("applied"), str(rec.get("action")));
            }
        }
        Frame f = b.build("edits", null);
        return new Frame("edits", new ArrayList<>(f.columns()), f.rowCount() + " edits x " + f.columnCount() + " columns · "
                + f.booleanColumn("selected").countTrue() + " selected · " + f.booleanColumn("applied").countTrue() + " applied");
    }

    /** Maps an item key to the first minibatch file that proposed the same (op, target, content). */
    private static Map<String, String> origins(StepArtifacts s) {
        Map<String, String> out = new HashMap<>();
        s.patches().forEach((name, patch) -> {
            for (Object o : payload(map(patch.get("patch")))) out.putIfAbsent(key(map(o)), name);
        });
        return out;
    }

    private static String key(Map<String, Object> e) {
        return first(e, "op", "type") + "\u0000" + first(e, "file") + "\u0000" + first(e, "target", "title") + "\u0000"
                + first(e, "content", "instruction", "new_skill").strip();
    }

    private static String first(Map<String, Object> e, String... keys) {
        for (String k : keys) if (e.get(k) != null) return str(e.get(k));
        return "";
    }

    static int proposed(StepArtifacts art) {
        return art.patches().values().stream().mapToInt(p -> payload(map(p.get("patch"))).size()).sum();
    }

    static List<Object> payload(Map<String, Object> patch) {
        for (String k : PAYLOAD_KEYS) if (patch.get(k) instanceof List<?> l) return new ArrayList<>(l);
        return List.of();
    }

    private static Integer chars(Object s) { return s instanceof String t ? t.codePointCount(0, t.length()) : null; }

    private static Object unmatched(StepArtifacts art, Map<String, Object> apply) {
        if (art != null && !art.editApplyReport().isEmpty()) {
            return (int) art.editApplyReport().stream().map(row -> str(row.get("status")))
                    .filter(s -> s.startsWith("skipped") || s.equals("error")).count();
        }
        if (apply.isEmpty()) return null;
        return intOf(apply.get("skipped")) + intOf(apply.get("errors"));
    }

    static long[] tokens(Map<String, Object> byStage) {
        long p = 0, c = 0;
        for (Object v : byStage.values()) {
            Map<String, Object> m = map(v);
            p += (long) dbl(m.get("prompt_tokens"));
            c += (long) dbl(m.get("completion_tokens"));
        }
        return new long[] {p, c};
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) { return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of(); }

    static String str(Object o) { return o == null ? "" : String.valueOf(o); }

    static int intOf(Object o) { return o instanceof Number n ? n.intValue() : 0; }

    static double dbl(Object o) { return o instanceof Number n ? n.doubleValue() : 0.0; }
}
