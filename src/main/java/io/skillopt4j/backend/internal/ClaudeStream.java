package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.Usage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe (stateless). Parses Claude Code's {@code stream-json} (and {@code json}) output; a failed tool result
 * is a step starting {@code [error] }, not a failed call. Failure signals go to meta for {@link #failure}.
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
                    if (e.path("subtype").asText("").equals("api_retry")) {
                        meta.merge("api_retries", "1", (a, b) -> String.valueOf(Integer.parseInt(a) + 1));
                        if (e.path("error_status").canConvertToInt()) meta.put("api_retry_status", e.path("error_status").asText());
                        if (e.path("error").isTextual()) meta.put("api_retry_error", e.path("error").asText());
                        continue;
                    }
                    for (String k : List.of("session_id", "model")) if (e.path(k).isTextual()) meta.put(k, e.path(k).asText());
                }
                case "assistant" -> {
                    if (e.path("is_api_error_message").asBoolean(false) || e.path("error").isTextual()) {
                        // Claude Code's synthetic message for a failed API call: the failure, not the agent's words
                        meta.put("assistant_error", e.path("error").asText("api_error"));
                        meta.put("assistant_error_text", StreamLines.text(e.path("message").path("content")));
                        continue;
                    }
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
                        boolean failed = c.path("is_error").asBoolean(false);
                        if (failed) meta.merge("tool_errors", "1", (a, b) -> String.valueOf(Integer.parseInt(a) + 1));
                        steps.add(StreamLines.toolResult(tool, (failed ? "[error] " : "") + StreamLines.text(c.path("content"))));
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
        for (String k : List.of("total_cost_usd", "num_turns")) if (result.has(k)) meta.put(k, result.path(k).asText());
        if (result.path("api_error_status").canConvertToInt()) meta.put("api_error_status", result.path("api_error_status").asText());
        for (String k : List.of("api_error_type", "terminal_reason")) if (result.path(k).isTextual()) meta.put(k, result.path(k).asText());
        if (result.path("subtype").isTextual()) meta.put("result_subtype", result.path("subtype").asText());
        JsonNode denials = result.path("permission_denials");
        if (denials.isArray() && !denials.isEmpty()) meta.put("permission_denials", String.valueOf(denials.size()));
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

    /**
     * The failed call a Claude Code run reports, or null: by the API status it reports, else its error result, else
     * (a non-zero exit without a result) what it printed.
     */
    public static BackendException failure(String backend, ParsedTrace t, int exitCode, String stderr) {
        Map<String, String> m = t.meta();
        String detail = t.isError() && !t.error().isBlank() ? t.error() : m.getOrDefault("assistant_error_text", "");
        int status = status(m.get("api_error_status"));
        if (status == 0 && (m.containsKey("assistant_error") || t.isError())) status = status(m.get("api_retry_status"));
        if (status == 0 && m.getOrDefault("assistant_error", "").startsWith("authentication")) status = 401;
        if (status == 0 && m.getOrDefault("assistant_error", "").startsWith("rate_limit")) status = 429;
        if (status > 0 && (status >= 400 || m.containsKey("assistant_error"))) {
            return AgentErrors.api(backend, "Claude", status, detail + (status == 401 ? LOGIN_HINT : ""));
        }
        if (t.isError() || m.containsKey("assistant_error")) {
            String what = detail.isBlank() ? m.getOrDefault("assistant_error", m.getOrDefault("result_subtype", "error")) : detail;
            return AgentErrors.failed(backend, "Claude Code", 0, "reported an error: " + what + loginHint(what));
        }
        if (exitCode == 0 || t.terminal()) return null;
        String err = stderr == null ? "" : stderr.strip();
        if (err.contains("cannot be used with root/sudo privileges")) {
            return AgentErrors.of(backend, backend + ": Claude Code refuses --permission-mode bypassPermissions as root: run it in a sandbox and set "
                    + "IS_SANDBOX=1 (or CLAUDE_CODE_BUBBLEWRAP=1), or choose another mode (model.claude_code_exec_permission_mode, e.g. dontAsk)", false);
        }
        return AgentErrors.failed(backend, "Claude Code", exitCode, err + loginHint(err));
    }

    private static final String LOGIN_HINT = " (set ANTHROPIC_API_KEY or run 'claude auth login')";

    private static String loginHint(String text) {
        String t = text == null ? "" : text.toLowerCase(java.util.Locale.ROOT);
        return t.contains("api key") || t.contains("/login") || t.contains("not logged in") || t.contains("authentication") ? LOGIN_HINT : "";
    }

    private static int status(String s) {
        try {
            return s == null ? 0 : Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The structured {@code result} object when the CLI returned one (schema mode), else null. */
    public static JsonNode structured(String raw) {
        JsonNode last = null;
        for (JsonNode e : StreamLines.events(raw).objects()) if (e.path("type").asText("").equals("result")) last = e;
        if (last == null) return null;
        if (last.path("structured_output").isObject()) return last.path("structured_output");
        return last.path("result").isObject() ? last.path("result") : null;
    }
}
