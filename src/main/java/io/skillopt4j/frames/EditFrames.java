package io.skillopt4j.frames;

import io.skillopt4j.run.RunSnapshot;
import io.skillopt4j.run.StepArtifacts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.skillopt4j.frames.StepFrames.map;
import static io.skillopt4j.frames.StepFrames.str;

/**
 * Stateless. The edits frame: one row per item of each step's pre-selection pool (merged, else ranked edits),
 * with its rank, its apply status (1-based index = rank) and the analyst minibatch that first proposed it.
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
                    if (!taken[k] && key(e).equals(key(map(ranked.get(k))))) { rank = k + 1; taken[k] = true; break; }
                }
                String st = rank == null ? "not_selected" : status.getOrDefault(rank, "");
                // file: a bundle edit's file; "" for a single-file skill (SKILL.md)
                b.row(rec.get("epoch"), s.step(), idx, first(e, "op", "type"), first(e, "file"),
                        first(e, "target", "title"), first(e, "content", "instruction", "new_skill"),
                        str(e.get("source_type")), e.get("support_count"), origin.getOrDefault(key(e), ""), rank,
                        rank != null, st, st.startsWith("applied"), str(rec.get("action")));
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

    private static String key(Map<String, Object> e) {
        return first(e, "op", "type") + "\u0000" + first(e, "file") + "\u0000" + first(e, "target", "title") + "\u0000"
                + first(e, "content", "instruction", "new_skill").strip();
    }

    private static String first(Map<String, Object> e, String... keys) {
        for (String k : keys) if (e.get(k) != null) return str(e.get(k));
        return "";
    }
}
