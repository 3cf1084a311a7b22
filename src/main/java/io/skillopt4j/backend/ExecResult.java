package io.skillopt4j.backend;

import java.time.Duration;
import java.util.List;

/**
 * Immutable. What an exec agent produced: {@code answer} is the extracted {@code <answer>} (or the final message),
 * {@code error} a one-line reason when not {@code ok}, {@code reportedUsd} the CLI's own cost figure or null.
 */
public record ExecResult(String answer, String finalMessage, List<TraceStep> trace, Usage usage,
                         Duration latency, boolean ok, String error, Double reportedUsd) {
    public ExecResult {
        answer = answer == null ? "" : answer;
        finalMessage = finalMessage == null ? "" : finalMessage;
        trace = trace == null ? List.of() : List.copyOf(trace);
        usage = usage == null ? Usage.ZERO : usage;
        latency = latency == null ? Duration.ZERO : latency;
        error = error == null ? "" : error;
    }

    /** A result whose CLI reported no cost of its own. */
    public ExecResult(String answer, String finalMessage, List<TraceStep> trace, Usage usage, Duration latency, boolean ok, String error) {
        this(answer, finalMessage, trace, usage, latency, ok, error, null);
    }
}
