package io.skillopt4j.backend;

import java.util.List;
import java.util.Objects;

/**
 * Immutable. One message of a chat: {@code role} is system, user, assistant or tool; images are URLs (usually
 * {@code data:} URLs); a tool message answers the call named by {@code toolCallId}.
 */
public record ChatMessage(String role, String content, List<String> imageUrls, List<ToolCall> toolCalls, String toolCallId) {
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        imageUrls = imageUrls == null ? List.of() : List.copyOf(imageUrls);
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String text) { return new ChatMessage("system", text, null, null, null); }

    public static ChatMessage user(String text) { return new ChatMessage("user", text, null, null, null); }

    public static ChatMessage user(String text, List<String> imageUrls) { return new ChatMessage("user", text, imageUrls, null, null); }

    public static ChatMessage assistant(String text) { return new ChatMessage("assistant", text, null, null, null); }

    /** An assistant turn that asked for tools, echoed back to the model on the next turn. */
    public static ChatMessage assistant(String text, List<ToolCall> calls) { return new ChatMessage("assistant", text, null, calls, null); }

    public static ChatMessage tool(String toolCallId, String result) { return new ChatMessage("tool", result, null, null, toolCallId); }
}
