package io.skillopt4j.backend;

import java.util.Objects;

/**
 * Immutable. One step of an exec agent's trace. {@code chars} is the length of the original text before any
 * cap; {@code truncated} says whether {@code text} was cut.
 */
public record TraceStep(Kind kind, String tool, String text, int chars, boolean truncated) {
    public enum Kind { TEXT, TOOL_CALL, TOOL_RESULT;
        /** The upstream spelling. */
        public String wire() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public TraceStep {
        Objects.requireNonNull(kind, "kind");
        tool = tool == null ? "" : tool;
        text = text == null ? "" : text;
    }
}
