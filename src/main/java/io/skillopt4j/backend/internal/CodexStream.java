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
 * Thread-safe (stateless). Parses Codex output in both shapes it has: the {@code --json} JSONL events
 * ({@code item.completed} agent_message / command_execution / file_change / mcp_tool_call,
 * {@code turn.completed} usage, {@code turn.failed}/{@code error}) and the human-readable exec log the
 * upstream harness reads (steps start at lines that are exactly {@code user}, {@code codex} or {@code exec}).
 */
public final class CodexStream {
    private CodexStream() {}

    /** Parses JSONL when the raw has JSON event lines, else the text log. */
    public static ParsedTrace parse(String raw) {
        boolean jsonl = StreamLines.events(raw).objects().stream().anyMatch(n -> n.has("type") || n.has("msg"));
        return jsonl ? parseJsonl(raw) : parseText(raw);
    }

    public static ParsedTrace parseJsonl(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        String text = "";
        String error = "";
        long prompt = 0, completion = 0, cached = 0;
        boolean terminal = false;
        StreamLines.Events events = StreamLines.events(raw);
        int skipped = events.nonJson();
        for (JsonNode e : events.objects()) {
            String type = e.path("type").asText("");
            JsonNode item = e.path("item");
            switch (type) {
                case "thread.started" -> meta.put("thread_id", e.path("thread_id").asText(""));
                case "item.completed" -> {
                    String it = item.path("type").asText("");
                    switch (it) {
                        case "agent_message" -> {
                            text = item.path("text").asText("");
                            steps.add(StreamLines.text(text));
                        }
                        case "command_execution" -> {
                            steps.add(StreamLines.toolCall("shell", item.path("command").asText("")));
                            steps.add(StreamLines.toolResult("shell", item.path("aggregated_output").asText("")));
                        }
                        case "file_change" -> steps.add(StreamLines.toolCall("apply_patch", item.path("changes").toString()));
                        case "mcp_tool_call" -> steps.add(StreamLines.toolCall(item.path("server").asText("") + "." + item.path("tool").asText(""),
                                item.path("arguments").toString()));
                        case "web_search" -> steps.add(StreamLines.toolCall("web_search", item.path("query").asText("")));
                        default -> { } // reasoning and unknown items are not steps
                    }
                }
                case "turn.completed" -> {
                    terminal = true;
                    JsonNode u = e.path("usage");
                    prompt += u.path("input_tokens").asLong(0);
                    completion += u.path("output_tokens").asLong(0);
                    cached += u.path("cached_input_tokens").asLong(0);
                }
                case "turn.failed" -> {
                    terminal = true;
                    error = e.path("error").path("message").asText("turn failed");
                }
                case "error" -> error = e.path("message").asText("error");
                case "thread.started_", "turn.started", "item.started", "item.updated" -> { }
                default -> skipped++;
            }
        }
        return new ParsedTrace(steps, text, new Usage(prompt, completion, prompt + completion, cached), terminal,
                !error.isEmpty(), HttpErrors.oneLine(error), skipped, meta);
    }

    /** Parses the human-readable exec log: exec → tool_call (command) + tool_result (outcome), codex → text. */
    public static ParsedTrace parseText(String raw) {
        List<String> lines = raw == null ? List.of() : List.of(raw.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1));
        List<TraceStep> steps = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        String type = null;
        List<String> body = new ArrayList<>();
        String lastText = "";
        String tokens = "";
        for (int i = 0; i <= lines.size(); i++) {
            String l = i < lines.size() ? lines.get(i) : null;
            String s = l == null ? null : l.strip();
            if (s != null && s.equals("tokens used") && i + 1 < lines.size()) tokens = lines.get(i + 1).strip().replace(",", "");
            if (s != null && s.startsWith("sandbox:")) meta.putIfAbsent("sandbox", s.substring(8).strip());
            if (s != null && s.startsWith("reasoning effort:")) meta.putIfAbsent("reasoning", s.substring(17).strip());
            boolean marker = s != null && (s.equals("user") || s.equals("codex") || s.equals("exec"));
            boolean footer = s != null && s.equals("tokens used"); // the usage footer ends the last step
            if (l == null || marker || footer) {
                if (type != null) {
                    String content = String.join("\n", body).strip();
                    if (type.equals("exec")) {
                        String cmd = body.stream().map(String::strip).filter(x -> !x.isEmpty()).findFirst().orElse("");
                        steps.add(StreamLines.toolCall("exec", cmd));
                        String rest = content.startsWith(cmd) ? content.substring(cmd.length()).strip() : content;
                        steps.add(StreamLines.toolResult("exec", rest));
                    } else if (type.equals("codex")) {
                        steps.add(StreamLines.text(content));
                        lastText = content;
                    }
                }
                type = l == null || footer ? null : s;
                body.clear();
            } else if (type != null) {
                body.add(l);
            }
        }
        if (!tokens.isEmpty()) meta.put("tokens_used", tokens);
        Usage u = Usage.ZERO;
        try {
            if (!tokens.isEmpty()) u = new Usage(0, 0, Long.parseLong(tokens), 0);
        } catch (NumberFormatException ignored) {
            // a format we do not know: keep zero
        }
        return new ParsedTrace(steps, lastText, u, false, false, "", 0, meta);
    }
}
