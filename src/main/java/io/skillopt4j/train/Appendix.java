package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Thread-safe. Skill-aware reflection's execution-notes appendix (EmbodiSkill), flushed past the gate. */
public record Appendix(TrainSettings settings, Optimizer optimizer) {
    /** Immutable. The skill after the flush and the counters for the step record (empty when no notes). */
    public record Flush(String skill, List<String> stepNotes, List<String> appendixAfter, int added, int total, Integer consolidated) {}


    /** Upstream's note extraction: a list of strings, a single string, or objects with note (else content). */
    public static List<String> extractNotes(Object v) {
        List<?> items = v instanceof String str ? List.of(str) : v instanceof List<?> l ? l : List.of();
        return items.stream().map(o -> o instanceof String str ? str.strip() : !(o instanceof Map<?, ?> m) ? ""
                : io.skillopt4j.config.Coercion.pyStr(Select.truthy(m.get("note")) ? m.get("note")
                        : Select.truthy(m.get("content")) ? m.get("content") : "").strip()).filter(t -> !t.isEmpty()).toList();
    }

    /** Upstream's canonical dedupe key: collapsed whitespace, trimmed, trailing " .;:,_-" removed, case-folded. */
    static String canonical(String note) {
        return note.replaceAll("\\s+", " ").strip().replaceFirst("[ .;:,_-]+\\z", "").toLowerCase(Locale.ROOT);
    }

    /** Merges notes (existing first), whitespace-collapsed and deduplicated by canonical key. */
    static List<String> merge(List<String> existing, List<String> added) {
        Set<String> seen = new LinkedHashSet<>();
        return java.util.stream.Stream.concat(existing.stream(), added.stream())
                .map(n -> n.replaceAll("\\s+", " ").strip())
                .filter(c -> !c.isEmpty() && seen.add(canonical(c))).toList();
    }

    /** Flushes the notes of a step's raw patches into {@code skill}; empty when no notes arrived. */
    public Optional<Flush> flush(String skill, List<Map<String, Object>> rawPatches) {
        List<String> notes = rawPatches.stream().flatMap(r -> extractNotes(r.get("appendix_notes")).stream()).toList();
        if (notes.isEmpty()) return Optional.empty();
        List<String> existing = SkillDocument.appendixNotes(skill);
        String out = SkillDocument.withAppendix(skill, merge(existing, notes));
        List<String> after = SkillDocument.appendixNotes(out); // upstream counts what the new block reads back
        Integer consolidated = null;
        if (settings.consolidateThreshold() > 0 && after.size() > settings.consolidateThreshold()) {
            List<String> c = consolidate(after); // empty unless shorter
            if (!c.isEmpty()) {
                out = SkillDocument.withAppendix(out, merge(List.of(), c));
                consolidated = c.size();
            }
        }
        return Optional.of(new Flush(out, notes, after, after.size() - existing.size(),
                consolidated == null ? after.size() : consolidated, consolidated));
    }

    /** One consolidation call over the numbered notes; the reply's notes, or empty when unusable or not shorter. */
    private List<String> consolidate(List<String> notes) {
        StringBuilder u = new StringBuilder("## Current Execution Notes (").append(notes.size()).append(" total)\n");
        for (int i = 0; i < notes.size(); i++) u.append(i + 1).append(". ").append(notes.get(i)).append('\n');
        u.append("\nReturn the consolidated notes as `appendix_notes`: fewer notes, no distinct actionable point lost.");
        Optional<Map<String, Object>> r = optimizer.json("appendix_consolidate", "consolidate",
                Prompts.generic("appendix_consolidate"), u.toString(), 4096, null, 2);
        if (r.isEmpty()) return List.of();
        List<String> c = extractNotes(r.get().get("appendix_notes"));
        if (c.isEmpty() || c.size() >= notes.size()) {
            optimizer.record("appendix_consolidate", "consolidate", "not_shorter", "kept " + notes.size() + " notes");
            return List.of();
        }
        return c;
    }

    /** Returns {step_notes, appendix_after} for {@code appendix_notes.json}. */
    public static Map<String, Object> file(Flush f) {
        return Json.obj("step_notes", f.stepNotes(), "appendix_after", f.appendixAfter());
    }
}
