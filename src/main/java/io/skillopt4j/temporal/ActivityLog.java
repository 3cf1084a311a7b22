package io.skillopt4j.temporal;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Thread-safe. {@code engine/activities.jsonl}: one row per finished activity (worker, attempt, queue wait, run time)
 * for {@code frames.EngineFrames}; a workflow re-attached after a restart is logged once.
 */
final class ActivityLog {
    private final Path file;
    private final Set<String> logged = new HashSet<>(); // guarded by this

    ActivityLog(Path file) {
        this.file = file;
        // a torn line's workflow is simply logged again
        for (Map<String, Object> line : Json.readObjectLines(file)) logged.add(String.valueOf(line.get("workflow")));
    }

    /** Logs the activities of one finished workflow (once per workflow id). */
    synchronized void add(String workflowId, String type, List<Map<String, Object>> results) {
        if (!logged.add(workflowId)) return;
        for (int i = 0; i < results.size(); i++) {
            Map<String, Object> r = results.get(i);
            AtomicFiles.appendLine(file, Json.line(Json.obj("workflow", workflowId, "index", i, "type", type,
                    "worker", r.get("worker"), "attempt", r.get("attempt"), "queue_ms", r.get("queue_ms"),
                    "run_ms", r.get("run_ms"))));
        }
    }
}
