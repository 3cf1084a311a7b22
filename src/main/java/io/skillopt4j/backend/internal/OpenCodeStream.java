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
 * Thread-safe (stateless). Parses {@code opencode run --format json}: one event per line, each with a
 * {@code part}. {@code text} → text step; {@code tool_use} → tool_call (tool, input) and tool_result (output, or
 * {@code failed: error} when the tool's state is an error); {@code step_finish} → usage ({@code tokens}: input,
 * output, reasoning, cache read/write) and cost (summed into meta {@code total_cost_usd} when OpenCode priced the
 * model, i.e. when it is above zero). The final text is the text of the last step that wrote any. An
 * {@code error} event ({@code error.name}, {@code error.data.message}, {@code statusCode}, {@code isRetryable})
 * makes the trace an error, with meta {@code error_status}, {@code error_name} and {@code error_retryable}.
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
