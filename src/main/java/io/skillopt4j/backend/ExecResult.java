package io.skillopt4j.backend;

import java.time.Duration;
import java.util.List;

/**
 * Immutable. What an exec agent produced: the final message, the extracted {@code <answer>} (or the final
 * message when there is none), parsed trace steps, usage, and whether it finished cleanly ({@code ok});
 * {@code error} is a one-line reason when not; {@code reportedUsd} is the run's cost as the CLI reported it
 * (Claude Code's {@code total_cost_usd}), null when it reports none.
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
