package io.skillopt4j.backend;

import java.util.List;
import java.util.Map;

/**
 * Immutable. What a CLI's event stream said: trace steps, the final text (empty when the stream ended
 * without its result), usage, whether a terminal event was seen, an error flagged by the stream, how many
 * lines were skipped (non-JSON or unknown), and metadata such as {@code session_id} and {@code model}.
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
