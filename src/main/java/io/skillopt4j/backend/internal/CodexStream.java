package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). Parses Codex output in both its shapes: the {@code --json} JSONL events, whose failure
 * carries the provider's HTTP status in meta {@code error_status}, and the human-readable exec log.
 */
public final class CodexStream {
    /** "unexpected status 401 Unauthorized", "status: 429", "HTTP 503": the status a Codex error message names. */
    private static final Pattern STATUS = Pattern.compile("(?i)(?:status|HTTP)[:\\s]+(\\d{3})\\b");
    private static final String RECONNECTING = "Reconnecting...";

    private CodexStream() {}

    /** Parses JSONL when the raw has JSON event lines, else the text log. */
    public static ParsedTrace parse(String raw) {
        boolean jsonl = StreamLines.events(raw).objects().stream().anyMatch(n -> n.has("type") || n.has("msg"));
        return jsonl ? parseJsonl(raw) : parseText(raw);
    }

    /**
     * Parses {@code codex exec --json}: {@code turn.failed}, or an {@code error} with no completed turn after it, makes
     * the trace an error; item errors are warnings and {@code Reconnecting...} errors Codex's own retries (meta).
     */
    public static ParsedTrace parseJsonl(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        String text = "";
        String error = "";
        long prompt = 0, completion = 0, cached = 0, cacheWrite = 0, reasoning = 0;
        boolean terminal = false, failed = false, usage = false;
        int retries = 0, failedCommands = 0;
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
                            JsonNode code = item.path("exit_code");
                            boolean bad = code.isNumber() && code.asInt() != 0;
                            if (bad) failedCommands++;
                            String out = item.path("aggregated_output").asText("");
                            steps.add(StreamLines.toolResult("shell", bad ? "exit " + code.asInt() + ": " + out : out));
                        }
                        case "file_change" -> steps.add(StreamLines.toolCall("apply_patch", item.path("changes").toString()));
                        case "mcp_tool_call" -> steps.add(StreamLines.toolCall(item.path("server").asText("") + "." + item.path("tool").asText(""),
                                item.path("arguments").toString()));
                        case "web_search" -> steps.add(StreamLines.toolCall("web_search", item.path("query").asText("")));
                        case "error" -> warnings.add(HttpErrors.oneLine(item.path("message").asText("")));
                        default -> { } // reasoning, todo lists and unknown items are not steps
                    }
                }
                case "turn.completed" -> {
                    terminal = true;
                    usage = true;
                    error = ""; // an error a later turn recovered from is not the run's outcome
                    JsonNode u = e.path("usage");
                    prompt += u.path("input_tokens").asLong(0);
                    completion += u.path("output_tokens").asLong(0);
                    cached += u.path("cached_input_tokens").asLong(0);
                    cacheWrite += u.path("cache_write_input_tokens").asLong(0);
                    reasoning += u.path("reasoning_output_tokens").asLong(0);
                }
                case "turn.failed" -> {
                    terminal = true;
                    failed = true;
                    error = e.path("error").path("message").asText("turn failed");
                }
                case "error" -> {
                    String m = e.path("message").asText("error");
                    if (m.startsWith(RECONNECTING)) retries++;
                    error = m;
                }
                case "turn.started", "item.started", "item.updated" -> { }
                default -> skipped++;
            }
        }
        if (!warnings.isEmpty()) meta.put("warnings", String.join(" | ", warnings));
        if (retries > 0) meta.put("retries", String.valueOf(retries));
        if (failedCommands > 0) meta.put("failed_commands", String.valueOf(failedCommands));
        meta.put("usage_reported", String.valueOf(usage));
        if (reasoning > 0) meta.put("reasoning_output_tokens", String.valueOf(reasoning));
        boolean isError = failed || !error.isEmpty();
        String status = status(error);
        if (isError && !status.isEmpty()) meta.put("error_status", status);
        return new ParsedTrace(steps, text, new Usage(prompt, completion, prompt + completion, cached, cacheWrite), terminal,
                isError, HttpErrors.oneLine(error), skipped, meta);
    }

    /** The HTTP status a Codex error message names ("unexpected status 401 Unauthorized: ..."), or "". */
    public static String status(String message) {
        Matcher m = STATUS.matcher(message == null ? "" : message);
        return m.find() ? m.group(1) : "";
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
            String s = l == null ? "" : l.strip();
            boolean footer = s.equals("tokens used"); // the usage footer ends the last step
            if (footer && i + 1 < lines.size()) tokens = lines.get(i + 1).strip().replace(",", "");
            if (s.startsWith("sandbox:")) meta.putIfAbsent("sandbox", s.substring(8).strip());
            if (s.startsWith("reasoning effort:")) meta.putIfAbsent("reasoning", s.substring(17).strip());
            if (l == null || footer || s.equals("user") || s.equals("codex") || s.equals("exec")) {
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
