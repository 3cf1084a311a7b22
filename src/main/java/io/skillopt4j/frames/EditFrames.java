package io.skillopt4j.frames;

import io.skillopt4j.run.RunSnapshot;
import io.skillopt4j.run.StepArtifacts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.skillopt4j.frames.StepFrames.map;
import static io.skillopt4j.frames.StepFrames.str;

/**
 * Stateless. Builds the edits frame: one row per item of each step's pre-selection pool
 * ({@code merged_patch.json}, else {@code ranked_edits.json}), joined with its rank in {@code ranked_edits.json},
 * its apply status from {@code edit_apply_report.json} (1-based index = rank) and the analyst minibatch that
 * first proposed it ({@code patches/minibatch_*.json}).
 */
final class EditFrames {
    private EditFrames() {}

    static Frame edits(RunSnapshot run) {
        RowBuilder b = new RowBuilder()
                .ints("epoch", "step", "index").strings("op", "file", "target", "content", "source_type").ints("support_count")
                .strings("source_minibatch").ints("rank").bools("selected").strings("status").bools("applied")
                .strings("step_action");
        Map<Integer, Map<String, Object>> hist = new HashMap<>();
        for (Map<String, Object> h : run.history()) hist.put(StepFrames.intOf(h.get("step")), h);
        int selected = 0, applied = 0;
        for (StepArtifacts s : run.steps()) {
            List<Object> pool = StepFrames.payload(s.mergedPatch());
            List<Object> ranked = StepFrames.payload(s.rankedEdits());
            if (pool.isEmpty()) pool = ranked;
            if (pool.isEmpty()) continue;
            Map<String, Object> rec = hist.getOrDefault(s.step(), s.record());
            Map<Integer, String> status = new HashMap<>();
            for (Map<String, Object> row : s.editApplyReport()) {
                if (row.get("index") instanceof Number n) status.put(n.intValue(), str(row.get("status")));
            }
            Map<String, String> origin = origins(s);
            boolean[] taken = new boolean[ranked.size()];
            int idx = 0;
            for (Object o : pool) {
                idx++;
                Map<String, Object> e = map(o);
                Integer rank = null;
                for (int k = 0; k < ranked.size(); k++) {
                    if (!taken[k] && sameItem(e, map(ranked.get(k)))) { rank = k + 1; taken[k] = true; break; }
                }
                String st = rank == null ? "not_selected" : status.getOrDefault(rank, "");
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("epoch", rec.get("epoch"));
                r.put("step", s.step());
                r.put("index", idx);
                r.put("op", first(e, "op", "type"));
                r.put("file", first(e, "file")); // a bundle edit's file; "" for a single-file skill (SKILL.md)
                r.put("target", first(e, "target", "title"));
                r.put("content", first(e, "content", "instruction", "new_skill"));
                r.put("source_type", str(e.get("source_type")));
                r.put("support_count", e.get("support_count"));
                r.put("source_minibatch", origin.getOrDefault(key(e), ""));
                r.put("rank", rank);
                r.put("selected", rank != null);
                r.put("status", st);
                r.put("applied", st.startsWith("applied"));
                r.put("step_action", str(rec.get("action")));
                b.add(r);
                if (rank != null) selected++;
                if (st.startsWith("applied")) applied++;
            }
        }
        Frame f = b.build("edits", null);
        return new Frame("edits", new ArrayList<>(f.columns()),
                f.rowCount() + " edits x " + f.columnCount() + " columns · " + selected + " selected · " + applied + " applied");
    }

    /** Maps an item key to the first minibatch file that proposed the same (op, target, content). */
    private static Map<String, String> origins(StepArtifacts s) {
        Map<String, String> out = new HashMap<>();
        s.patches().forEach((name, patch) -> {
            for (Object o : StepFrames.payload(map(patch.get("patch")))) out.putIfAbsent(key(map(o)), name);
        });
        return out;
    }

    private static boolean sameItem(Map<String, Object> a, Map<String, Object> b) { return key(a).equals(key(b)); }

    private static String key(Map<String, Object> e) {
        return first(e, "op", "type") + "\u0000" + first(e, "file") + "\u0000" + first(e, "target", "title") + "\u0000"
                + first(e, "content", "instruction", "new_skill").strip();
    }

    private static String first(Map<String, Object> e, String... keys) {
        for (String k : keys) if (e.get(k) != null) return str(e.get(k));
        return "";
    }
}
