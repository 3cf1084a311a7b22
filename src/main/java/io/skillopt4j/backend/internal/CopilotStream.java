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
 * Thread-safe (stateless). Parses the Copilot CLI's JSONL ({@code --output-format json}): the final text
 * is every {@code assistant.message} event's non-empty {@code data.content}, joined with newlines and
 * stripped (upstream's {@code parse_copilot_jsonl}); tool execution events become tool steps.
 */
public final class CopilotStream {
    private CopilotStream() {}

    public static ParsedTrace parse(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
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
                    steps.add(StreamLines.toolResult(tool, res.path("content").isTextual() ? res.path("content").asText() : StreamLines.text(res)));
                }
                case "session.start" -> { if (d.path("sessionId").isTextual()) meta.put("session_id", d.path("sessionId").asText()); }
                default -> skipped++;
            }
        }
        String text = String.join("\n", texts).strip();
        return new ParsedTrace(steps, text, Usage.ZERO, !text.isEmpty(), false, "", skipped, meta);
    }
}
