package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ToolCall;
import io.skillopt4j.backend.ToolSpec;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.internal.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Thread-safe (stateless). The OpenAI Chat Completions wire format shared by the OpenAI-style chat backends. */
public final class ChatCompletionsWire {
    private static final Set<String> CHOICE_WORDS = Set.of("auto", "none", "required");

    private ChatCompletionsWire() {}

    /** The {@code messages} array; images become {@code image_url} parts with {@code detail} (null = omitted). */
    public static List<Object> messages(List<ChatMessage> messages, String imageDetail) {
        List<Object> out = new ArrayList<>();
        for (ChatMessage m : messages) {
            Object content = m.content();
            if (!m.imageUrls().isEmpty()) {
                List<Object> parts = new ArrayList<>();
                if (!m.content().isEmpty()) parts.add(Map.of("type", "text", "text", m.content()));
                for (String url : m.imageUrls()) {
                    Map<String, Object> img = Json.obj("url", url);
                    if (imageDetail != null && !imageDetail.isBlank()) img.put("detail", imageDetail);
                    parts.add(Map.of("type", "image_url", "image_url", img));
                }
                content = parts;
            }
            Map<String, Object> o = Json.obj("role", m.role(), "content", content);
            if (!m.toolCalls().isEmpty()) o.put("tool_calls", m.toolCalls().stream().map(c -> Json.obj("id", c.id(),
                    "type", "function", "function", Json.obj("name", c.name(), "arguments", c.argumentsJson()))).toList());
            if (m.toolCallId() != null && !m.toolCallId().isEmpty()) o.put("tool_call_id", m.toolCallId());
            out.add(o);
        }
        return out;
    }

    /**
     * Adds the function {@code tools} and {@code tool_choice} (auto/none/required as is, any other word as a named
     * function) to {@code body} when tools are present.
     */
    public static void putTools(Map<String, Object> body, List<ToolSpec> tools, String toolChoice) {
        if (tools.isEmpty()) return;
        body.put("tools", tools.stream().map(t -> Map.of("type", "function", "function",
                Json.obj("name", t.name(), "description", t.description(), "parameters", t.parameters()))).toList());
        if (toolChoice != null && !toolChoice.isBlank()) {
            body.put("tool_choice", CHOICE_WORDS.contains(toolChoice) ? toolChoice
                    : Map.of("type", "function", "function", Map.of("name", toolChoice)));
        }
    }

    /** Parses a Chat Completions reply; no choices is a retriable failure, as upstream treats it. */
    public static ChatResponse parse(String backend, JsonNode n, String toolIdPrefix) {
        JsonNode choices = n.path("choices");
        if (!choices.isArray() || choices.isEmpty()) {
            throw new BackendException.Retriable(backend, 0, backend + ": reply has no choices", null);
        }
        JsonNode msg = choices.get(0).path("message");
        String text = contentText(msg.path("content"));
        String reasoning = msg.path("reasoning_content").isTextual() ? msg.path("reasoning_content").asText()
                : msg.path("reasoning").isTextual() ? msg.path("reasoning").asText() : "";
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode c : msg.path("tool_calls")) {
            JsonNode fn = c.path("function");
            String id = c.path("id").asText("");
            if (id.isEmpty()) id = toolIdPrefix + calls.size(); // the call's index: every call is added
            JsonNode args = fn.path("arguments");
            String a = args.isMissingNode() || args.isNull() ? "{}" : args.isTextual() ? args.asText() : args.toString();
            calls.add(new ToolCall(id, fn.path("name").asText(""), a.isBlank() ? "{}" : a));
        }
        return new ChatResponse(text, calls, usage(n.path("usage")), Duration.ZERO, n.path("model").asText(""), reasoning);
    }

    /** Returns message content as text: a string, or the text parts of a list joined, or JSON otherwise. */
    public static String contentText(JsonNode c) {
        if (c == null || c.isMissingNode() || c.isNull()) return "";
        if (c.isTextual()) return c.asText();
        if (c.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode p : c) if (p.path("text").isTextual()) sb.append(p.path("text").asText());
            return sb.toString();
        }
        return c.toString();
    }

    /** Reads prompt|input and completion|output tokens, total (falling back to the sum) and cached tokens. */
    public static Usage usage(JsonNode u) {
        long p = u.path("prompt_tokens").asLong(u.path("input_tokens").asLong(0));
        long c = u.path("completion_tokens").asLong(u.path("output_tokens").asLong(0));
        long t = u.path("total_tokens").asLong(p + c);
        long cached = u.path("prompt_tokens_details").path("cached_tokens").asLong(
                u.path("input_tokens_details").path("cached_tokens").asLong(0));
        return new Usage(p, c, t == 0 ? p + c : t, cached);
    }
}
