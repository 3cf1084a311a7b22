package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.internal.Json;

import java.util.ArrayList;
import java.util.List;

/** Thread-safe (stateless). Line-level helpers and trace steps shared by the stream parsers. */
public final class StreamLines {
    /** Each tool result kept in a trace is capped at this many characters. */
    public static final int TOOL_RESULT_CAP = 200;

    private StreamLines() {}

    /** Immutable. A stream's JSON-object lines in order, and how many lines were not JSON objects. */
    public record Events(List<JsonNode> objects, int nonJson) {}

    /** Splits a JSONL stream on LF, CRLF or CR into its object events; blank lines are skipped. */
    public static Events events(String raw) {
        List<JsonNode> out = new ArrayList<>();
        int nonJson = 0;
        for (String line : raw == null ? new String[0] : raw.split("\\r\\n|\\n|\\r")) {
            if (line.isBlank()) continue;
            JsonNode e = object(line.strip());
            if (e == null) nonJson++;
            else out.add(e);
        }
        return new Events(out, nonJson);
    }

    /** The line as a JSON object, or null when it is not one. */
    public static JsonNode object(String line) {
        if (line == null || !line.startsWith("{")) return null;
        try {
            JsonNode n = Json.mapper().readTree(line);
            return n != null && n.isObject() ? n : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** A tool result step, capped at {@link #TOOL_RESULT_CAP} chars. */
    public static TraceStep toolResult(String tool, String text) {
        String t = text == null ? "" : text;
        boolean cut = t.length() > TOOL_RESULT_CAP;
        return new TraceStep(TraceStep.Kind.TOOL_RESULT, tool, cut ? t.substring(0, TOOL_RESULT_CAP) : t, t.length(), cut);
    }

    public static TraceStep text(String text) {
        String t = text == null ? "" : text;
        return new TraceStep(TraceStep.Kind.TEXT, "", t, t.length(), false);
    }

    /** A tool call step; {@code input} is the call's arguments as text. */
    public static TraceStep toolCall(String tool, String input) {
        String t = input == null ? "" : input;
        return new TraceStep(TraceStep.Kind.TOOL_CALL, tool, t, t.length(), false);
    }

    /** A JSON node as text: strings as is, text-part arrays joined, anything else as JSON. */
    public static String text(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) return "";
        if (n.isTextual()) return n.asText();
        if (n.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode p : n) {
                sb.append(p.isTextual() ? p.asText() : p.path("text").isTextual() ? p.get("text").asText() : p.toString());
            }
            return sb.toString();
        }
        return n.toString();
    }
}
