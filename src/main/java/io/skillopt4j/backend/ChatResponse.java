package io.skillopt4j.backend;

import java.time.Duration;
import java.util.List;

/**
 * Immutable. The reply of one chat call: the assistant text (may be empty when only tools were called),
 * tool calls, token usage, wall latency of the successful attempt, the model that answered, and
 * {@code reasoning} text where the provider returns it separately (empty otherwise).
 */
public record ChatResponse(String text, List<ToolCall> toolCalls, Usage usage, Duration latency, String model, String reasoning) {
    public ChatResponse {
        text = text == null ? "" : text;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? Usage.ZERO : usage;
        latency = latency == null ? Duration.ZERO : latency;
        model = model == null ? "" : model;
        reasoning = reasoning == null ? "" : reasoning;
    }

    public static ChatResponse of(String text, Usage usage) { return new ChatResponse(text, List.of(), usage, Duration.ZERO, "", ""); }
}
