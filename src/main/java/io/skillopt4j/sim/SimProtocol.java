package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Immutable (stateless). The OpenAI chat-completions wire format as the simulator reads and writes it. */
final class SimProtocol {
    private SimProtocol() {}

    /** The parts of a request the simulator uses. */
    record Parsed(String model, String system, String user, int promptChars, int messages, int maxTokens, String cacheKey) {}

    static Parsed parse(String body) {
        Map<String, Object> m;
        try {
            m = Json.parseObject(body);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("request body is not a JSON object");
        }
        if (!(m.get("messages") instanceof List<?> msgs) || msgs.isEmpty())
            throw new IllegalArgumentException("'messages' must be a non-empty array");
        if (Boolean.TRUE.equals(m.get("stream"))) throw new IllegalArgumentException("'stream': true is not supported by the simulator");
        String system = null, user = "";
        int chars = 0;
        for (Object o : msgs) {
            if (!(o instanceof Map<?, ?> msg) || !(msg.get("role") instanceof String role))
                throw new IllegalArgumentException("every message needs a string 'role'");
            String text = text(msg.get("content"));
            chars += text.length();
            if (role.equals("system") && system == null) system = text;
            if (role.equals("user")) user = text;
        }
        int max = m.get("max_tokens") instanceof Number n ? n.intValue()
                : m.get("max_completion_tokens") instanceof Number n2 ? n2.intValue() : Integer.MAX_VALUE;
        return new Parsed(m.get("model") instanceof String s ? s : "", system == null ? "" : system, user, chars, msgs.size(), max,
                m.get("prompt_cache_key") instanceof String k ? k : "");
    }

    /** The parts of an Anthropic Messages body ({@code system} a string or text blocks, {@code max_tokens}). */
    static Parsed parseAnthropic(Map<String, Object> m) {
        if (!(m.get("messages") instanceof List<?> msgs) || msgs.isEmpty())
            throw new IllegalArgumentException("'messages' must be a non-empty array");
        String system = text(m.get("system")), user = "";
        int chars = system.length();
        for (Object o : msgs) {
            if (!(o instanceof Map<?, ?> msg) || !(msg.get("role") instanceof String role))
                throw new IllegalArgumentException("every message needs a string 'role'");
            String t = text(msg.get("content"));
            chars += t.length();
            if (role.equals("user")) user = t;
        }
        int max = m.get("max_tokens") instanceof Number n ? n.intValue() : Integer.MAX_VALUE;
        return new Parsed(m.get("model") instanceof String s ? s : "", system, user, chars, msgs.size() + (system.isEmpty() ? 0 : 1), max, "");
    }

    /** An Anthropic message object for {@code reply}. */
    static Map<String, Object> message(Parsed req, String reply, String modelName, long id) {
        String content = reply;
        String stop = "end_turn";
        if (tokens(content.length()) > req.maxTokens()) {
            content = content.substring(0, Math.max(0, req.maxTokens()) * 4);
            stop = "max_tokens";
        }
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("input_tokens", tokens(req.promptChars()) + 3 * req.messages());
        usage.put("output_tokens", tokens(content.length()));
        usage.put("cache_creation_input_tokens", 0);
        usage.put("cache_read_input_tokens", 0);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", "msg_sim" + Long.toHexString(id));
        out.put("type", "message");
        out.put("role", "assistant");
        out.put("model", req.model().isEmpty() ? modelName : req.model());
        out.put("content", List.of(Map.of("type", "text", "text", content)));
        out.put("stop_reason", stop);
        out.put("usage", usage);
        return out;
    }

    private static String text(Object content) {
        if (content == null) return "";
        if (content instanceof String s) return s;
        if (content instanceof List<?> parts) {
            StringBuilder b = new StringBuilder();
            for (Object p : parts) if (p instanceof Map<?, ?> pm && pm.get("text") instanceof String t) b.append(t);
            return b.toString();
        }
        return String.valueOf(content);
    }

    /** Estimates tokens as about four characters each, as tokenizers average on English text. */
    static int tokens(int chars) { return (chars + 3) / 4; }

    static String completion(Parsed req, String reply, String modelName, long id) { return completion(req, reply, modelName, id, 0); }

    /** A completion whose usage reports {@code cached} prompt tokens read from the (simulated) prompt cache. */
    static String completion(Parsed req, String reply, String modelName, long id, int cached) {
        String content = reply;
        String finish = "stop";
        if (tokens(content.length()) > req.maxTokens()) {
            content = content.substring(0, Math.max(0, req.maxTokens()) * 4);
            finish = "length";
        }
        int prompt = tokens(req.promptChars()) + 3 * req.messages();
        int completion = tokens(content.length());
        Map<String, Object> msg = new LinkedHashMap<>();
        msg.put("role", "assistant");
        msg.put("content", content);
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("message", msg);
        choice.put("finish_reason", finish);
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", prompt);
        usage.put("completion_tokens", completion);
        usage.put("total_tokens", prompt + completion);
        if (cached > 0) usage.put("prompt_tokens_details", Map.of("cached_tokens", Math.min(cached, prompt)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", "chatcmpl-sim-" + Long.toHexString(id));
        out.put("object", "chat.completion");
        out.put("created", 1_700_000_000L); // fixed: replies must not depend on time
        out.put("model", req.model().isEmpty() ? modelName : req.model());
        out.put("choices", List.of(choice));
        out.put("usage", usage);
        out.put("system_fingerprint", "skillopt-sim");
        return Json.compact(out);
    }

    static String models(String modelName) {
        return Json.compact(Map.of("object", "list", "data",
                List.of(Map.of("id", modelName, "object", "model", "created", 1_700_000_000L, "owned_by", "skillopt4j"))));
    }

    static String error(String message, String type) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("message", message);
        e.put("type", type);
        e.put("code", type);
        return Json.compact(Map.of("error", e));
    }
}
