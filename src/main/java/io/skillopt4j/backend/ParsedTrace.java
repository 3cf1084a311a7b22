package io.skillopt4j.backend;

import java.util.List;
import java.util.Map;

/**
 * Immutable. What a CLI's event stream said; {@code finalText} is empty when the stream ended without its result,
 * {@code skippedLines} counts non-JSON or unknown lines.
 */
public record ParsedTrace(List<TraceStep> steps, String finalText, Usage usage, boolean terminal, boolean isError,
                          String error, int skippedLines, Map<String, String> meta) {
    public ParsedTrace {
        steps = steps == null ? List.of() : List.copyOf(steps);
        finalText = finalText == null ? "" : finalText;
        usage = usage == null ? Usage.ZERO : usage;
        error = error == null ? "" : error;
        meta = meta == null ? Map.of() : Map.copyOf(meta);
    }
}
