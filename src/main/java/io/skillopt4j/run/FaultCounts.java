package io.skillopt4j.run;

import io.skillopt4j.internal.Json;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stateless. Fault counts across sessions, so a stopped session's still count after a resume: {@code faults.jsonl} has
 * one line per session that saw a fault ({@code {"outcome", "last_completed_step", "fault_usage": {stage: {kind: n}}}}).
 * Maps have {@code UsageMeter.faultSummary()}'s shape: stages, then {@code "_total"}.
 */
public final class FaultCounts {
    /** In the order they are listed. */
    public static final List<String> KINDS = List.of("retries", "give_ups", "fast_fails", "fallbacks", "errored");

    private FaultCounts() {}

    /** Returns the sum of every session line of {@code <root>/faults.jsonl} (torn lines skipped); only "_total" when none. */
    public static Map<String, Map<String, Long>> stored(Path root) {
        Map<String, Map<String, Long>> sum = empty();
        for (Map<String, Object> line : sessions(root)) if (line.get("fault_usage") instanceof Map<?, ?> m) sum = plus(sum, m);
        return sum;
    }

    /** How the last recorded session ended ("errored", ...) if it stopped after {@code lastCompletedStep}, else "". */
    public static String lastOutcome(Path root, int lastCompletedStep) {
        List<Map<String, Object>> lines = sessions(root); // a torn last line is skipped: the one before it counts
        if (lines.isEmpty()) return "";
        Map<String, Object> line = lines.get(lines.size() - 1);
        boolean same = line.get("last_completed_step") instanceof Number n && n.intValue() == lastCompletedStep;
        return same && line.get("outcome") != null ? String.valueOf(line.get("outcome")) : "";
    }

    /** None when the file is absent or unreadable: counts are advisory. */
    private static List<Map<String, Object>> sessions(Path root) {
        try {
            return Json.readObjectLines(root.resolve(RunPaths.FAULTS));
        } catch (UncheckedIOException unreadable) {
            return List.of();
        }
    }

    /** Appends one session's counts ({@code outcome} = how it ended) when it counted any fault. */
    public static void append(RunWriter w, String outcome, int lastCompletedStep, Map<String, Map<String, Long>> session) {
        if (total(session) == 0) return;
        w.jsonLine(w.paths().root().resolve(RunPaths.FAULTS),
                Json.obj("outcome", outcome, "last_completed_step", lastCompletedStep, "fault_usage", session));
    }

    /** Returns {@code a + b}, stage by stage and kind by kind, "_total" recomputed last. */
    public static Map<String, Map<String, Long>> plus(Map<String, Map<String, Long>> a, Map<?, ?> b) {
        Map<String, Map<String, Long>> stages = new TreeMap<>();
        for (Map<?, ?> m : List.<Map<?, ?>>of(a, b)) {
            m.forEach((stage, kinds) -> {
                if ("_total".equals(stage) || !(kinds instanceof Map<?, ?> km)) return;
                Map<String, Long> into = stages.computeIfAbsent(String.valueOf(stage), s -> zeros());
                km.forEach((k, n) -> { if (n instanceof Number x) into.merge(String.valueOf(k), x.longValue(), Long::sum); });
            });
        }
        Map<String, Map<String, Long>> out = new LinkedHashMap<>(stages);
        Map<String, Long> total = zeros();
        stages.values().forEach(m -> m.forEach((k, n) -> total.merge(k, n, Long::sum)));
        out.put("_total", total);
        return out;
    }

    /** Returns the total count of {@code kind} ("_total" row), 0 when absent. */
    public static long total(Map<String, Map<String, Long>> counts, String kind) {
        Map<String, Long> t = counts.get("_total");
        return t == null ? 0 : t.getOrDefault(kind, 0L);
    }

    private static long total(Map<String, Map<String, Long>> counts) {
        Map<String, Long> t = counts.get("_total");
        return t == null ? 0 : t.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Only a zero "_total". */
    public static Map<String, Map<String, Long>> empty() { return plus(Map.of(), Map.of()); }

    private static Map<String, Long> zeros() {
        return KINDS.stream().collect(java.util.stream.Collectors.toMap(k -> k, k -> 0L, Long::sum, LinkedHashMap::new));
    }
}
