package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe (stateless). Parses the Copilot CLI's JSONL: the final text joins every {@code assistant.message}
 * (upstream's {@code parse_copilot_jsonl}); {@code session.error} or a non-zero exit code make the trace an error.
 * The CLI reports no token counts, so usage is zero and meta {@code usage_reported} says so.
 */
public final class CopilotStream {
    private CopilotStream() {}

    public static ParsedTrace parse(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        String error = "";
        String status = "";
        boolean terminal = false;
        int failedCalls = 0;
        StreamLines.Events events = StreamLines.events(raw);
        int skipped = events.nonJson();
        for (JsonNode e : events.objects()) {
            JsonNode d = e.path("data");
            switch (e.path("type").asText("")) {
                case "assistant.message" -> {
                    if (d.path("content").isTextual() && !d.path("content").asText().isEmpty()) {
                        texts.add(d.path("content").asText());
                        steps.add(StreamLines.text(d.path("content").asText()));
                    }
                }
                case "tool.execution_start" -> {
                    String tool = d.path("toolName").asText(d.path("name").asText("tool"));
                    names.put(d.path("toolCallId").asText(""), tool);
                    steps.add(StreamLines.toolCall(tool, d.path("arguments").toString()));
                }
                case "tool.execution_complete" -> {
                    String tool = names.getOrDefault(d.path("toolCallId").asText(""), d.path("toolName").asText("tool"));
                    JsonNode res = d.path("result");
                    String out = res.path("content").isTextual() ? res.path("content").asText() : StreamLines.text(res);
                    if (out.isEmpty() && d.has("error")) out = d.path("error").path("message").asText(d.path("error").toString());
                    steps.add(StreamLines.toolResult(tool, d.path("success").asBoolean(true) ? out : "failed: " + out));
                }
                case "model.call_failure" -> {
                    failedCalls++;
                    if (d.path("statusCode").isNumber()) status = String.valueOf(d.path("statusCode").asInt());
                }
                case "session.error" -> {
                    error = d.path("message").asText("session error");
                    if (d.path("statusCode").isNumber()) status = String.valueOf(d.path("statusCode").asInt());
                    if (d.path("errorType").isTextual()) meta.put("error_type", d.path("errorType").asText());
                }
                case "session.start" -> { if (d.path("sessionId").isTextual()) meta.put("session_id", d.path("sessionId").asText()); }
                case "result" -> {
                    terminal = true;
                    if (e.path("sessionId").isTextual()) meta.put("session_id", e.path("sessionId").asText());
                    int code = e.path("exitCode").asInt(0);
                    meta.put("exit_code", String.valueOf(code));
                    if (e.path("usage").path("premiumRequests").isNumber()) meta.put("premium_requests", e.path("usage").path("premiumRequests").asText());
                    if (code != 0 && error.isEmpty()) error = "Copilot CLI reported exit code " + code;
                }
                default -> skipped++;
            }
        }
        if (failedCalls > 0) meta.put("failed_model_calls", String.valueOf(failedCalls));
        meta.put("usage_reported", "false");
        boolean isError = !error.isEmpty();
        if (isError && !status.isEmpty()) meta.put("error_status", status);
        String text = String.join("\n", texts).strip();
        return new ParsedTrace(steps, text, Usage.ZERO, terminal || !text.isEmpty(), isError, HttpErrors.oneLine(error), skipped, meta);
    }
}
