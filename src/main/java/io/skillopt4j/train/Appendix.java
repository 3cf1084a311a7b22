package io.skillopt4j.train;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Thread-safe. Skill-aware reflection's execution-notes appendix (EmbodiSkill): note extraction from analyst
 * replies, the flush of a step's notes into the skill (deduplicated, first-seen order; bypasses the gate) and
 * the optional consolidation call once the appendix holds more than the threshold.
 */
public final class Appendix {
    /** Immutable. The skill after the flush and the counters for the step record (empty when no notes). */
    public record Flush(String skill, List<String> stepNotes, List<String> appendixAfter, int added, int total, Integer consolidated) {}

    private final TrainSettings s;
    private final Optimizer optimizer;

    public Appendix(TrainSettings settings, Optimizer optimizer) {
        this.s = settings;
        this.optimizer = optimizer;
    }

    /** Accepts a list of strings, a single string, or objects with note/content. */
    public static List<String> extractNotes(Object v) {
        List<String> out = new ArrayList<>();
        if (v instanceof String str) { if (!str.isBlank()) out.add(str.strip()); return out; }
        if (!(v instanceof List<?> l)) return out;
        for (Object o : l) {
            Object t = o;
            if (o instanceof Map<?, ?> m) t = m.get("note") != null ? m.get("note") : m.get("content");
            if (t instanceof String str && !str.isBlank()) out.add(str.strip());
        }
        return out;
    }

    /** Upstream's canonical dedupe key: collapsed whitespace, trimmed, trailing " .;:,_-" removed, case-folded. */
    static String canonical(String note) {
        String c = note.replaceAll("\\s+", " ").strip();
        int e = c.length();
        while (e > 0 && " .;:,_-".indexOf(c.charAt(e - 1)) >= 0) e--;
        return c.substring(0, e).toLowerCase(Locale.ROOT);
    }

    /** Merges notes (existing first), whitespace-collapsed and deduplicated by canonical key. */
    static List<String> merge(List<String> existing, List<String> added) {
        Set<String> seen = new LinkedHashSet<>();
        List<String> out = new ArrayList<>();
        for (List<String> l : List.of(existing, added)) {
            for (String n : l) {
                String c = n.replaceAll("\\s+", " ").strip();
                if (!c.isEmpty() && seen.add(canonical(c))) out.add(c);
            }
        }
        return out;
    }

    /** Flushes the notes of a step's raw patches into {@code skill}; empty when no notes arrived. */
    public Optional<Flush> flush(String skill, List<Map<String, Object>> rawPatches) {
        List<String> notes = new ArrayList<>();
        for (Map<String, Object> raw : rawPatches) notes.addAll(extractNotes(raw.get("appendix_notes")));
        if (notes.isEmpty()) return Optional.empty();
        List<String> existing = SkillDocument.appendixNotes(skill);
        List<String> merged = merge(existing, notes);
        int added = merged.size() - existing.size();
        String out = SkillDocument.withAppendix(skill, merged);
        Integer consolidated = null;
        int total = merged.size();
        if (s.consolidateThreshold() > 0 && merged.size() > s.consolidateThreshold()) {
            List<String> c = consolidate(merged);
            if (!c.isEmpty() && c.size() < merged.size()) {
                out = SkillDocument.withAppendix(skill, c);
                consolidated = c.size();
                total = c.size();
            }
        }
        return Optional.of(new Flush(out, notes, merged, added, total, consolidated));
    }

    private List<String> consolidate(List<String> notes) {
        StringBuilder u = new StringBuilder("## Current Appendix Notes\n");
        for (String n : notes) u.append("- ").append(n).append('\n');
        u.append("\nReturn the consolidated notes as `appendix_notes` (strictly fewer than ").append(notes.size()).append(").");
        Optional<Map<String, Object>> r = optimizer.json("appendix_consolidate", "consolidate",
                Prompts.generic("appendix_consolidate"), u.toString(), 4096, null, 2);
        if (r.isEmpty()) return List.of();
        List<String> c = merge(List.of(), extractNotes(r.get().get("appendix_notes")));
        if (c.isEmpty() || c.size() >= notes.size()) {
            optimizer.record("appendix_consolidate", "consolidate", "not_shorter", "kept " + notes.size() + " notes");
            return List.of();
        }
        return c;
    }

    /** Returns {step_notes, appendix_after} for {@code appendix_notes.json}. */
    public static Map<String, Object> file(Flush f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("step_notes", f.stepNotes());
        m.put("appendix_after", f.appendixAfter());
        return m;
    }
}
