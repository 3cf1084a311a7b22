package io.skillopt4j.frames;

import io.skillopt4j.run.FaultCounts;
import io.skillopt4j.run.RunSnapshot;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stateless. Faults per stage from {@code summary.json}'s {@code fault_usage} or, before the run finishes, from
 * {@code faults.jsonl}; a {@code _total} row last (only that row, all zero, for a run without faults).
 */
final class FaultFrames {
    private FaultFrames() {}

    /** Returns the counts as stage → kind → n ({@code "_total"} last). */
    static Map<String, Map<String, Long>> counts(RunSnapshot run) {
        Object stored = run.summary().get("fault_usage");
        if (stored instanceof Map<?, ?> m) return FaultCounts.plus(FaultCounts.empty(), m);
        return run.dir() == null ? FaultCounts.empty() : FaultCounts.stored(run.dir());
    }

    static Frame faults(RunSnapshot run) {
        RowBuilder b = new RowBuilder().strings("stage").longs(FaultCounts.KINDS.toArray(String[]::new));
        counts(run).forEach((stage, kinds) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("stage", stage);
            for (String k : FaultCounts.KINDS) row.put(k, kinds.getOrDefault(k, 0L));
            b.add(row);
        });
        return b.build("faults", null);
    }
}
