package io.skillopt4j.train;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Immutable. What {@link Trainer#train()} returns: the {@code summary.json} map and the run folder. A stopped
 * run returns {@code {"stopped": true, "last_completed_step": k}} instead of a summary (the folder resumes);
 * {@code alreadyComplete} is true when the folder held the finished run already and nothing was run or written.
 */
public record TrainingResult(Map<String, Object> summary, Path outRoot, boolean alreadyComplete) {
    public TrainingResult {
        summary = Collections.unmodifiableMap(new LinkedHashMap<>(summary));
    }

    /** A result of this session's training (or stop). */
    public TrainingResult(Map<String, Object> summary, Path outRoot) { this(summary, outRoot, false); }

    /** Returns true when the run was stopped before it finished. */
    public boolean stopped() { return Boolean.TRUE.equals(summary.get("stopped")); }

    /**
     * Why a stopped run stopped: {@code "errored"} (model calls failed after their retries; {@code errored_stage} and
     * {@code message} say where and why), {@code "budget"}, or "" (asked to stop, or not stopped).
     */
    public String stopReason() { Object r = summary.get("stop_reason"); return r == null ? "" : String.valueOf(r); }
}
