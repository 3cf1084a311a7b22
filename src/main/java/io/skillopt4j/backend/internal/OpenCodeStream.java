package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Thread-safe (stateless). Parses {@code opencode run --format json}: {@code step_finish} events give usage and cost
 * (meta {@code total_cost_usd} when OpenCode priced the model), the final text is that of the last step that wrote
 * any, and an {@code error} event makes the trace an error.
 */
public final class OpenCodeStream {
    private OpenCodeStream() {}

    public static ParsedTrace parse(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        List<String> stepTexts = new ArrayList<>();
        List<String> lastTexts = List.of();
        long input = 0, output = 0, reasoning = 0, cacheRead = 0, cacheWrite = 0;
        double cost = 0;
        boolean terminal = false, usage = false;
        String error = "";
        StreamLines.Events events = StreamLines.events(raw);
        int skipped = events.nonJson();
        for (JsonNode e : events.objects()) {
            JsonNode part = e.path("part");
            if (e.path("sessionID").isTextual()) meta.putIfAbsent("session_id", e.path("sessionID").asText());
            switch (e.path("type").asText("")) {
                case "step_start" -> stepTexts = new ArrayList<>();
                case "text" -> {
                    String t = part.path("text").asText("");
                    if (!t.isBlank()) {
                        steps.add(StreamLines.text(t));
                        stepTexts.add(t);
                        lastTexts = stepTexts;
                    }
                }
                case "tool_use" -> {
                    String tool = part.path("tool").asText("tool");
                    JsonNode state = part.path("state");
                    steps.add(StreamLines.toolCall(tool, state.path("input").isMissingNode() ? "" : state.path("input").toString()));
                    boolean failed = state.path("status").asText("").equals("error");
                    String out = failed ? "failed: " + StreamLines.text(state.path("error")) : StreamLines.text(state.path("output"));
                    steps.add(StreamLines.toolResult(tool, out));
                }
                case "step_finish" -> {
                    terminal = true;
                    usage = true;
                    JsonNode tk = part.path("tokens");
                    input += tk.path("input").asLong(0);
                    output += tk.path("output").asLong(0);
                    reasoning += tk.path("reasoning").asLong(0);
                    cacheRead += tk.path("cache").path("read").asLong(0);
                    cacheWrite += tk.path("cache").path("write").asLong(0);
                    cost += part.path("cost").asDouble(0);
                    if (part.path("reason").isTextual()) meta.put("finish_reason", part.path("reason").asText());
                }
                case "error" -> {
                    JsonNode err = e.path("error");
                    JsonNode data = err.path("data");
                    error = data.path("message").asText(err.path("message").asText(err.path("name").asText("error")));
                    if (err.path("name").isTextual()) meta.put("error_name", err.path("name").asText());
                    if (data.path("statusCode").isNumber()) meta.put("error_status", String.valueOf(data.path("statusCode").asInt()));
                    if (data.path("isRetryable").isBoolean()) meta.put("error_retryable", String.valueOf(data.path("isRetryable").asBoolean()));
                }
                default -> skipped++;
            }
        }
        meta.put("usage_reported", String.valueOf(usage));
        if (cost > 0) meta.put("total_cost_usd", String.format(Locale.ROOT, "%.10f", cost));
        long prompt = input + cacheRead + cacheWrite;
        long completion = output + reasoning;
        String text = String.join("\n", lastTexts).strip();
        return new ParsedTrace(steps, text, new Usage(prompt, completion, prompt + completion, cacheRead, cacheWrite),
                terminal, !error.isEmpty(), HttpErrors.oneLine(error), skipped, meta);
    }
}
