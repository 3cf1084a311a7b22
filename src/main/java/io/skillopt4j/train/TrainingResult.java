package io.skillopt4j.train;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Immutable. The {@code summary.json} map (or a stopped run's) and the run folder; see {@link Trainer#train()}. */
public record TrainingResult(Map<String, Object> summary, Path outRoot, boolean alreadyComplete) {
    public TrainingResult { summary = Collections.unmodifiableMap(new LinkedHashMap<>(summary)); }

    /** A result of this session's training (or stop). */
    public TrainingResult(Map<String, Object> summary, Path outRoot) { this(summary, outRoot, false); }

    /** True when the run was stopped before it finished. */
    public boolean stopped() { return Boolean.TRUE.equals(summary.get("stopped")); }

    /** Why a stopped run stopped: {@code "errored"}, {@code "budget"}, or "" (asked to stop, or not stopped). */
    public String stopReason() { Object r = summary.get("stop_reason"); return r == null ? "" : String.valueOf(r); }
}
