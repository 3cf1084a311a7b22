package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;


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
        int max = m.get("max_tokens") instanceof Number n ? n.intValue()
                : m.get("max_completion_tokens") instanceof Number n2 ? n2.intValue() : Integer.MAX_VALUE;
        return read(m, null, max, m.get("prompt_cache_key") instanceof String k ? k : "");
    }

    /** The parts of an Anthropic Messages body ({@code system} a string or text blocks, {@code max_tokens}). */
    static Parsed parseAnthropic(Map<String, Object> m) {
        return read(m, text(m.get("system")), m.get("max_tokens") instanceof Number n ? n.intValue() : Integer.MAX_VALUE, "");
    }

    /** Reads the messages after Anthropic's top-level {@code system}; null: OpenAI's, whose first system message is it. */
    private static Parsed read(Map<String, Object> m, String topSystem, int max, String cacheKey) {
        if (!(m.get("messages") instanceof List<?> msgs) || msgs.isEmpty())
            throw new IllegalArgumentException("'messages' must be a non-empty array");
        if (topSystem == null && Boolean.TRUE.equals(m.get("stream")))
            throw new IllegalArgumentException("'stream': true is not supported by the simulator");
        String system = topSystem, user = "";
        int chars = system == null ? 0 : system.length();
        for (Object o : msgs) {
            if (!(o instanceof Map<?, ?> msg) || !(msg.get("role") instanceof String role))
                throw new IllegalArgumentException("every message needs a string 'role'");
            String text = text(msg.get("content"));
            chars += text.length();
            if (role.equals("system") && system == null) system = text;
            if (role.equals("user")) user = text;
        }
        int n = msgs.size() + (topSystem == null || topSystem.isEmpty() ? 0 : 1);
        return new Parsed(m.get("model") instanceof String s ? s : "", system == null ? "" : system, user, chars, n, max, cacheKey);
    }

    /** An Anthropic message object for {@code reply}. */
    static Map<String, Object> message(Parsed req, String reply, String modelName, long id) {
        boolean cut = cut(req, reply);
        String content = cut ? reply.substring(0, Math.max(0, req.maxTokens()) * 4) : reply;
        Map<String, Object> usage = Json.obj("input_tokens", tokens(req.promptChars()) + 3 * req.messages(),
                "output_tokens", tokens(content.length()), "cache_creation_input_tokens", 0, "cache_read_input_tokens", 0);
        return Json.obj("id", "msg_sim" + Long.toHexString(id), "type", "message", "role", "assistant",
                "model", req.model().isEmpty() ? modelName : req.model(), "content", List.of(Map.of("type", "text", "text", content)),
                "stop_reason", cut ? "max_tokens" : "end_turn", "usage", usage);
    }

    private static String text(Object content) {
        if (content instanceof List<?> parts)
            return parts.stream().map(p -> p instanceof Map<?, ?> pm && pm.get("text") instanceof String t ? t : "")
                    .collect(Collectors.joining());
        return content == null ? "" : String.valueOf(content);
    }

    /** Estimates tokens as about four characters each, as tokenizers average on English text. */
    static int tokens(int chars) { return (chars + 3) / 4; }

    /** True when {@code reply} exceeds the request's token limit and is cut to it. */
    private static boolean cut(Parsed req, String reply) { return tokens(reply.length()) > req.maxTokens(); }

    /** A completion whose usage reports {@code cached} prompt tokens read from the (simulated) prompt cache. */
    static String completion(Parsed req, String reply, String modelName, long id, int cached) {
        boolean cut = cut(req, reply);
        String content = cut ? reply.substring(0, Math.max(0, req.maxTokens()) * 4) : reply;
        int prompt = tokens(req.promptChars()) + 3 * req.messages();
        int completion = tokens(content.length());
        Map<String, Object> choice = Json.obj("index", 0, "message", Json.obj("role", "assistant", "content", content),
                "finish_reason", cut ? "length" : "stop");
        Map<String, Object> usage = Json.obj("prompt_tokens", prompt, "completion_tokens", completion, "total_tokens", prompt + completion);
        if (cached > 0) usage.put("prompt_tokens_details", Map.of("cached_tokens", Math.min(cached, prompt)));
        return Json.compact(Json.obj("id", "chatcmpl-sim-" + Long.toHexString(id), "object", "chat.completion",
                "created", 1_700_000_000L, // fixed: replies must not depend on time
                "model", req.model().isEmpty() ? modelName : req.model(), "choices", List.of(choice), "usage", usage,
                "system_fingerprint", "skillopt-sim"));
    }

    static String models(String modelName) {
        return Json.compact(Map.of("object", "list", "data",
                List.of(Map.of("id", modelName, "object", "model", "created", 1_700_000_000L, "owned_by", "skillopt4j"))));
    }

    static String error(String message, String type) {
        return Json.compact(Map.of("error", Json.obj("message", message, "type", type, "code", type)));
    }
}
