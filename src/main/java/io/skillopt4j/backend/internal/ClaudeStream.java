package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe (stateless). Parses Claude Code's {@code stream-json} (and the single-object {@code json}
 * output) into trace steps: assistant {@code text} → text, {@code tool_use} → tool_call, user
 * {@code tool_result} → tool_result (capped); {@code system/init} and {@code thinking} are dropped. The last
 * {@code result} event gives the final text, usage and {@code is_error}. Tolerates non-JSON lines, unknown
 * events, any key order, CRLF and a missing result line (then {@code terminal} is false).
 */
public final class ClaudeStream {
    private ClaudeStream() {}

    public static ParsedTrace parse(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        Map<String, String> toolNames = new HashMap<>();
        Map<String, String> meta = new LinkedHashMap<>();
        JsonNode result = null;
        StreamLines.Events events = StreamLines.events(raw);
        int skipped = events.nonJson();
        for (JsonNode e : events.objects()) {
            String type = e.path("type").asText("");
            switch (type) {
                case "system" -> {
                    if (e.path("session_id").isTextual()) meta.put("session_id", e.path("session_id").asText());
                    if (e.path("model").isTextual()) meta.put("model", e.path("model").asText());
                }
                case "assistant" -> {
                    for (JsonNode c : e.path("message").path("content")) {
                        switch (c.path("type").asText("")) {
                            case "text" -> { if (!c.path("text").asText("").isBlank()) steps.add(StreamLines.text(c.path("text").asText())); }
                            case "tool_use" -> {
                                String name = c.path("name").asText("tool");
                                toolNames.put(c.path("id").asText(""), name);
                                steps.add(StreamLines.toolCall(name, c.path("input").isMissingNode() ? "" : c.path("input").toString()));
                            }
                            default -> { } // thinking and redacted_thinking are dropped on purpose
                        }
                    }
                }
                case "user" -> {
                    for (JsonNode c : e.path("message").path("content")) {
                        if (!c.path("type").asText("").equals("tool_result")) continue;
                        String tool = toolNames.getOrDefault(c.path("tool_use_id").asText(""), "");
                        steps.add(StreamLines.toolResult(tool, StreamLines.text(c.path("content"))));
                    }
                }
                case "result" -> result = e;
                default -> skipped++;
            }
        }
        if (result == null) {
            return new ParsedTrace(steps, "", Usage.ZERO, false, false, "stream ended without a result event", skipped, meta);
        }
        if (result.path("session_id").isTextual()) meta.put("session_id", result.path("session_id").asText());
        if (result.has("total_cost_usd")) meta.put("total_cost_usd", result.path("total_cost_usd").asText());
        if (result.has("num_turns")) meta.put("num_turns", result.path("num_turns").asText());
        JsonNode u = result.path("usage");
        long cacheRead = u.path("cache_read_input_tokens").asLong(0);
        long prompt = u.path("input_tokens").asLong(0) + cacheRead + u.path("cache_creation_input_tokens").asLong(0);
        long completion = u.path("output_tokens").asLong(0);
        Usage usage = new Usage(prompt, completion, prompt + completion, cacheRead, u.path("cache_creation_input_tokens").asLong(0));
        String text = result.path("result").isTextual() ? result.path("result").asText()
                : result.path("content").isTextual() ? result.path("content").asText()
                : result.path("result").isObject() ? result.path("result").toString() : "";
        boolean isError = result.path("is_error").asBoolean(false) || result.path("subtype").asText("").startsWith("error");
        String error = "";
        if (isError) {
            String detail = !text.isBlank() ? text : result.path("error").isTextual() ? result.path("error").asText()
                    : result.path("subtype").asText("error");
            error = HttpErrors.oneLine(detail);
        }
        return new ParsedTrace(steps, text, usage, true, isError, error, skipped, meta);
    }

    /** Returns the structured {@code result} object when the CLI returned one (schema mode), else null. */
    public static JsonNode structured(String raw) {
        JsonNode last = null;
        for (JsonNode e : StreamLines.events(raw).objects()) if (e.path("type").asText("").equals("result")) last = e;
        if (last == null) return null;
        if (last.path("structured_output").isObject()) return last.path("structured_output");
        return last.path("result").isObject() ? last.path("result") : null;
    }
}
