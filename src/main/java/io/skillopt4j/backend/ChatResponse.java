package io.skillopt4j.backend;

import java.time.Duration;
import java.util.List;

/**
 * Immutable. The reply of one chat call: {@code text} may be empty when only tools were called, {@code latency} is
 * that of the successful attempt, {@code reasoning} is empty unless the provider returns it separately.
 */
public record ChatResponse(String text, List<ToolCall> toolCalls, Usage usage, Duration latency, String model, String reasoning,
                           Billing billing) {
    public ChatResponse {
        text = text == null ? "" : text;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? Usage.ZERO : usage;
        latency = latency == null ? Duration.ZERO : latency;
        model = model == null ? "" : model;
        reasoning = reasoning == null ? "" : reasoning;
        billing = billing == null ? Billing.DIRECT : billing;
    }

    public ChatResponse(String text, List<ToolCall> toolCalls, Usage usage, Duration latency, String model, String reasoning) {
        this(text, toolCalls, usage, latency, model, reasoning, Billing.DIRECT);
    }

    public static ChatResponse of(String text, Usage usage) { return new ChatResponse(text, List.of(), usage, Duration.ZERO, "", ""); }

    public ChatResponse withBilling(Billing b) { return new ChatResponse(text, toolCalls, usage, latency, model, reasoning, b); }
}
