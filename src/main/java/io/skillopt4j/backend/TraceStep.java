package io.skillopt4j.backend;

import java.util.Objects;

/**
 * Immutable. One step of an exec agent's trace, parsed from its event stream: a text message, a tool call
 * or a tool result. {@code chars} is the length of the original text before any cap; {@code truncated}
 * says whether {@code text} was cut (tool results are capped at 200 characters).
 */
public record TraceStep(Kind kind, String tool, String text, int chars, boolean truncated) {
    /** The closed set of step kinds. */
    public enum Kind { TEXT, TOOL_CALL, TOOL_RESULT;
        /** Returns the upstream spelling: text, tool_call, tool_result. */
        public String wire() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public TraceStep {
        Objects.requireNonNull(kind, "kind");
        tool = tool == null ? "" : tool;
        text = text == null ? "" : text;
    }
}
