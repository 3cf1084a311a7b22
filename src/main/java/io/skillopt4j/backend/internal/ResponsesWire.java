package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ToolCall;
import io.skillopt4j.internal.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Thread-safe (stateless). The OpenAI Responses API, which upstream uses for the Codex/pro model families:
 * system messages become {@code instructions}, tool results {@code function_call_output}, assistant tool
 * calls {@code function_call} items; the reply's text is {@code output_text} or the last text part.
 */
public final class ResponsesWire {
    /** Upstream's {@code _RESPONSES_API_MODELS}. */
    public static final List<String> MODELS = List.of("gpt-5.3-codex", "gpt-5.1-codex", "gpt-5.2-codex", "gpt-5-codex", "codex-mini", "gpt-5.4-pro");

    private ResponsesWire() {}

    /** Whether upstream routes {@code deployment} to the Responses API. */
    public static boolean usesResponses(String deployment) {
        String d = deployment == null ? "" : deployment.toLowerCase(Locale.ROOT);
        return MODELS.stream().anyMatch(m -> d.equals(m) || d.startsWith(m + "-"));
    }

    public static Map<String, Object> body(String model, ChatRequest r, String imageDetail) {
        List<String> system = new ArrayList<>();
        List<Object> input = new ArrayList<>();
        for (ChatMessage m : r.messages()) {
            switch (m.role()) {
                case "system" -> system.add(m.content());
                case "tool" -> input.add(Map.of("type", "function_call_output", "call_id", m.toolCallId() == null ? "" : m.toolCallId(), "output", m.content()));
                case "assistant" -> {
                    if (!m.content().isEmpty()) input.add(Map.of("role", "assistant", "content", m.content()));
                    for (ToolCall c : m.toolCalls()) {
                        input.add(Map.of("type", "function_call", "call_id", c.id(), "name", c.name(), "arguments", c.argumentsJson()));
                    }
                }
                case "user", "developer" -> {
                    if (m.imageUrls().isEmpty()) {
                        input.add(Map.of("role", "user", "content", m.content()));
                    } else {
                        List<Object> parts = new ArrayList<>();
                        parts.add(Map.of("type", "input_text", "text", m.content()));
                        for (String u : m.imageUrls()) {
                            Map<String, Object> img = Json.obj("type", "input_image", "image_url", u);
                            if (imageDetail != null && !imageDetail.isBlank()) img.put("detail", imageDetail);
                            parts.add(img);
                        }
                        input.add(Map.of("role", "user", "content", parts));
                    }
                }
                default -> { } // upstream drops other roles
            }
        }
        Map<String, Object> body = Json.obj("model", model);
        if (!system.isEmpty()) body.put("instructions", String.join("\n\n", system));
        body.put("input", input);
        body.put("max_output_tokens", r.maxCompletionTokens());
        if (r.reasoningEffort() != null && !r.reasoningEffort().isBlank()) body.put("reasoning", Map.of("effort", r.reasoningEffort()));
        if (!r.tools().isEmpty()) {
            body.put("tools", r.tools().stream().map(t -> Json.obj("type", "function", "name", t.name(),
                    "description", t.description(), "parameters", t.parameters())).toList());
            if (r.toolChoice() != null && !r.toolChoice().isBlank()) {
                body.put("tool_choice", List.of("auto", "none", "required").contains(r.toolChoice()) ? r.toolChoice()
                        : Map.of("type", "function", "name", r.toolChoice()));
            }
        }
        return body;
    }

    public static ChatResponse parse(JsonNode n) {
        String text = n.path("output_text").isTextual() ? n.path("output_text").asText() : null;
        String lastPart = "";
        StringBuilder reasoning = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode item : n.path("output")) {
            String type = item.path("type").asText("");
            if (type.equals("message")) {
                for (JsonNode p : item.path("content")) if (p.path("type").asText("").equals("output_text")) lastPart = p.path("text").asText("");
            } else if (type.equals("function_call")) {
                calls.add(new ToolCall(item.path("call_id").asText(item.path("id").asText("")), item.path("name").asText(""),
                        item.path("arguments").asText("{}")));
            } else if (type.equals("reasoning")) {
                for (JsonNode s : item.path("summary")) reasoning.append(s.path("text").asText(""));
            }
        }
        return new ChatResponse(text != null ? text : lastPart, calls, ChatCompletionsWire.usage(n.path("usage")), Duration.ZERO,
                n.path("model").asText(""), reasoning.toString());
    }
}
