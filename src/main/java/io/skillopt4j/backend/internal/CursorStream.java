package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). Parses cursor-agent {@code stream-json} and sanitises it for persistence as upstream does:
 * prompts, contents and answers are omitted, credentials redacted, non-JSON lines one marker.
 */
public final class CursorStream {
    private static final Set<String> OMIT = Set.of("args", "content", "filetext", "prompt", "result", "text");
    private static final Set<String> SECRET = Set.of("accesstoken", "apikey", "authorization", "cursorapikey", "password", "refreshtoken", "secret", "token");
    private static final Pattern ASSIGN = Pattern.compile("(?i)\\b(cursor_api_key|api[_ -]?key|authorization|bearer|access[_ -]?token|refresh[_ -]?token|token|password)(\\s*[:=]\\s*|\\s+)(bearer\\s+)?[^\\s,;]+");
    private static final Pattern TOKEN = Pattern.compile("\\b(sk|key)[_-][A-Za-z0-9_-]{8,}\\b");

    private CursorStream() {}

    public static ParsedTrace parse(String raw) {
        List<TraceStep> steps = new ArrayList<>();
        Map<String, String> meta = new LinkedHashMap<>();
        JsonNode result = null;
        StreamLines.Events events = StreamLines.events(raw);
        int skipped = events.nonJson();
        int toolCalls = 0;
        for (JsonNode e : events.objects()) {
            String type = e.path("type").asText("");
            String sub = e.path("subtype").asText("");
            switch (type) {
                case "system" -> {
                    for (String k : List.of("model", "permissionMode", "session_id")) if (e.path(k).isTextual()) meta.put(k, e.path(k).asText());
                }
                case "assistant" -> {
                    String t = StreamLines.text(e.path("message").path("content"));
                    if (!t.isBlank()) steps.add(StreamLines.text(t));
                }
                case "tool_call" -> {
                    JsonNode call = e.path("tool_call");
                    String tool = call.fieldNames().hasNext() ? call.fieldNames().next().replace("ToolCall", "") : "tool";
                    JsonNode inner = call.path(call.fieldNames().hasNext() ? call.fieldNames().next() : "");
                    if (sub.equals("started")) {
                        toolCalls++;
                        steps.add(StreamLines.toolCall(tool, inner.path("args").toString()));
                    } else if (sub.equals("completed")) {
                        steps.add(StreamLines.toolResult(tool, StreamLines.text(inner.path("result"))));
                    }
                }
                case "result" -> result = e;
                case "user", "thinking" -> { }
                default -> skipped++;
            }
        }
        meta.put("tool_calls", String.valueOf(toolCalls));
        if (result == null) return new ParsedTrace(steps, "", Usage.ZERO, false, false, "did not emit a terminal result", skipped, meta);
        meta.put("duration_ms", String.valueOf(result.path("duration_ms").asLong(0)));
        if (result.path("session_id").isTextual()) meta.put("session_id", result.path("session_id").asText());
        boolean isError = result.path("is_error").asBoolean(false) || result.path("subtype").asText("").equals("error");
        String text = result.path("result").isTextual() ? result.path("result").asText() : "";
        return new ParsedTrace(steps, text, Usage.ZERO, true, isError,
                isError ? "returned an error result: " + redact(HttpErrors.oneLine(text.isBlank() ? result.path("error").asText("error") : text)) : "",
                skipped, meta);
    }

    /** The raw stream sanitised for persistence (one line per input line). */
    public static String sanitize(String raw) {
        StringBuilder sb = new StringBuilder();
        boolean lastOmitted = false;
        for (String line : (raw == null ? "" : raw).split("\\r\\n|\\n|\\r", -1)) {
            boolean verbatim = line.isBlank() || line.startsWith("=====") || line.equals("[stderr]");
            JsonNode n = verbatim ? null : StreamLines.object(line.strip());
            boolean omitted = !verbatim && n == null; // a run of non-JSON lines becomes one marker
            if (!omitted) sb.append(verbatim ? line : clean(n).toString()).append('\n');
            else if (!lastOmitted) sb.append("[OMITTED NON-JSON OUTPUT]\n");
            lastOmitted = omitted;
        }
        return sb.toString();
    }

    private static JsonNode clean(JsonNode n) {
        if (n instanceof ObjectNode o) {
            for (String k : o.properties().stream().map(Map.Entry::getKey).toList()) {
                String norm = k.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
                if (OMIT.contains(norm)) o.put(k, "[OMITTED]");
                else if (SECRET.contains(norm) || norm.endsWith("apikey")) o.put(k, "[REDACTED]");
                else if (o.get(k).isTextual()) o.put(k, redact(o.get(k).asText()));
                else clean(o.get(k));
            }
        } else if (n != null && n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                JsonNode c = n.get(i);
                if (c.isTextual()) ((com.fasterxml.jackson.databind.node.ArrayNode) n).set(i, redact(c.asText()));
                else clean(c);
            }
        }
        return n;
    }

    /** Applies upstream's assignment and token regexes. */
    public static String redact(String s) {
        String out = ASSIGN.matcher(s).replaceAll(m -> m.group(1) + java.util.regex.Matcher.quoteReplacement(m.group(2)) + "[REDACTED]");
        return TOKEN.matcher(out).replaceAll("[REDACTED]");
    }
}
