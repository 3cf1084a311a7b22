package io.skillopt4j.frames;

import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stateless. The Temporal engine's per-worker table from {@code engine/activities.jsonl} (empty on local runs);
 * retries are the attempts before the one that finished.
 */
final class EngineFrames {
    private EngineFrames() {}

    static Frame workers(Path runDir) {
        Map<String, long[]> by = new TreeMap<>(); // activities, rollout, optimizer, retries, queue sum, queue max, run sum
        Path file = runDir.resolve("engine").resolve("activities.jsonl");
        for (Map<String, Object> r : Json.readObjectLines(file)) {
            long[] a = by.computeIfAbsent(String.valueOf(r.get("worker")), k -> new long[7]);
            long queue = num(r.get("queue_ms"));
            a[0]++;
            a["rollout".equals(r.get("type")) ? 1 : 2]++;
            a[3] += Math.max(0, num(r.get("attempt")) - 1);
            a[4] += queue;
            a[5] = Math.max(a[5], queue);
            a[6] += num(r.get("run_ms"));
        }
        RowBuilder b = new RowBuilder().strings("worker").longs("activities", "rollout_items", "optimizer_calls", "retries")
                .doubles("queue_wait_ms_mean").longs("queue_wait_ms_max").doubles("run_ms_mean");
        by.forEach((w, a) -> b.row(w, a[0], a[1], a[2], a[3], Math.round(10.0 * a[4] / a[0]) / 10.0, a[5],
                Math.round(10.0 * a[6] / a[0]) / 10.0));
        return b.build("engine_workers", null);
    }

    private static long num(Object o) { return o instanceof Number n ? n.longValue() : 0; }
}
