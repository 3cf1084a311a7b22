package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.internal.AnthropicBatches;
import io.skillopt4j.backend.internal.Http;
import io.skillopt4j.backend.internal.HttpCall;
import io.skillopt4j.backend.internal.PromptCaching;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import okhttp3.OkHttpClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe. {@code claude_chat} over the Anthropic Messages HTTP API ({@code claude_chat_transport: api}), for Java
 * users without the Claude Code CLI.
 *
 * <pre>{@code
 * ChatModel m = AnthropicChatModel.builder().apiKey(System.getenv("ANTHROPIC_API_KEY")).build();
 * }</pre>
 */
public final class AnthropicChatModel extends AbstractChatModel {
    private static final Pattern DATA_URL = Pattern.compile("^data:([^;,]+);base64,(.*)$", Pattern.DOTALL);
    private final String url;
    private final String apiKey;
    private final String version;
    private final int thinkingBudget;
    private final OkHttpClient client;
    private final boolean promptCache;

    private AnthropicChatModel(Builder b) {
        super("claude_chat", b);
        String base = OpenAiCompatibleChatModel.stripSlash(b.baseUrl == null || b.baseUrl.isBlank() ? ModelKey.ANTHROPIC_BASE_URL.text() : b.baseUrl.trim());
        this.url = base.endsWith("/v1/messages") ? base : base + "/v1/messages";
        this.apiKey = b.apiKey == null ? "" : b.apiKey;
        if (apiKey.isBlank()) throw new io.skillopt4j.ConfigException("claude_chat: claude_chat_transport=api needs ANTHROPIC_API_KEY");
        Redactor.remember(apiKey);
        this.version = b.version;
        this.thinkingBudget = b.thinkingBudget;
        this.client = Http.client(defaultTimeout == null ? Duration.ofSeconds(300) : defaultTimeout, url);
        this.promptCache = PromptCaching.enabled(b.promptCache, url, "api.anthropic.com");
    }

    public static Builder builder() { return new Builder(); }

    @Override protected boolean retriesInTransport() { return true; }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) {
        return Map.of("url", url, "thinking_budget", thinkingBudget);
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        return parse(HttpCall.postJson(client, url, headers(), body(r), policy(r)));
    }

    private Map<String, String> headers() { return Map.of("x-api-key", apiKey, "anthropic-version", version); }

    /** Message Batches at {@code {url}/batches}: each request's {@code params} is the Messages body. */
    @Override protected BatchSupport batchSupport() {
        return batchOnce(() -> new BatchSupport(new AnthropicBatches(client, url, headers(), batchPolicy()), this::body, this::parse));
    }

    private Map<String, Object> body(ChatRequest r) {
        Map<String, Object> body = Json.obj("model", model, "max_tokens", r.maxCompletionTokens());
        List<String> system = new ArrayList<>();
        List<Map<String, Object>> messages = new ArrayList<>();
        for (ChatMessage m : r.messages()) {
            if (m.role().equals("system")) {
                system.add(m.content());
                continue;
            }
            String role = m.role().equals("assistant") ? "assistant" : "user";
            List<Object> blocks = blocks(m);
            Map<String, Object> last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
            if (last != null && last.get("role").equals(role) && m.role().equals("tool")) {
                @SuppressWarnings("unchecked") List<Object> prev = (List<Object>) last.get("content");
                prev.addAll(blocks); // consecutive tool results travel in one user turn
            } else {
                messages.add(Json.obj("role", role, "content", blocks));
            }
        }
        if (!system.isEmpty() && promptCache) {
            // the system prompt (with the skill) is the stable prefix: mark its end as a cache breakpoint
            body.put("system", List.of(Json.obj("type", "text", "text", String.join("\n\n", system),
                    "cache_control", Map.of("type", "ephemeral"))));
        } else if (!system.isEmpty()) {
            body.put("system", String.join("\n\n", system));
        }
        body.put("messages", messages);
        if (thinkingBudget > 0) body.put("thinking", Map.of("type", "enabled", "budget_tokens", thinkingBudget));
        if (!r.tools().isEmpty()) {
            body.put("tools", r.tools().stream()
                    .map(t -> Map.of("name", t.name(), "description", t.description(), "input_schema", t.parameters())).toList());
            String c = r.toolChoice();
            if (c != null && !c.isBlank()) {
                body.put("tool_choice", switch (c) {
                    case "auto" -> Map.of("type", "auto");
                    case "required" -> Map.of("type", "any");
                    case "none" -> Map.of("type", "none");
                    default -> Map.of("type", "tool", "name", c);
                });
            }
        }
        return body;
    }

    /** A Messages API reply (or a batch result's {@code message}) as a response. */
    private ChatResponse parse(JsonNode n) {
        StringBuilder text = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode blk : n.path("content")) {
            switch (blk.path("type").asText("")) {
                case "text" -> text.append(blk.path("text").asText(""));
                case "thinking" -> thinking.append(blk.path("thinking").asText(""));
                case "tool_use" -> calls.add(new ToolCall(blk.path("id").asText(""), blk.path("name").asText(""),
                        blk.path("input").isMissingNode() ? "{}" : blk.path("input").toString()));
                default -> { }
            }
        }
        JsonNode u = n.path("usage");
        long cacheRead = u.path("cache_read_input_tokens").asLong(0);
        long prompt = u.path("input_tokens").asLong(0) + cacheRead + u.path("cache_creation_input_tokens").asLong(0);
        long completion = u.path("output_tokens").asLong(0);
        return new ChatResponse(text.toString(), calls, new Usage(prompt, completion, prompt + completion, cacheRead, u.path("cache_creation_input_tokens").asLong(0)),
                Duration.ZERO, n.path("model").asText(model), thinking.toString());
    }

    private static List<Object> blocks(ChatMessage m) {
        List<Object> out = new ArrayList<>();
        if (m.role().equals("tool")) {
            out.add(Map.of("type", "tool_result", "tool_use_id", m.toolCallId() == null ? "" : m.toolCallId(), "content", m.content()));
            return out;
        }
        for (String u : m.imageUrls()) {
            Matcher d = DATA_URL.matcher(u);
            out.add(d.matches()
                    ? Map.of("type", "image", "source", Map.of("type", "base64", "media_type", d.group(1), "data", d.group(2)))
                    : Map.of("type", "image", "source", Map.of("type", "url", "url", u)));
        }
        if (!m.content().isEmpty() || out.isEmpty() && m.toolCalls().isEmpty()) out.add(Map.of("type", "text", "text", m.content()));
        for (ToolCall c : m.toolCalls()) {
            Object input;
            try {
                input = Json.mapper().readValue(c.argumentsJson(), Map.class);
            } catch (Exception e) {
                input = Map.of();
            }
            out.add(Map.of("type", "tool_use", "id", c.id(), "name", c.name(), "input", input));
        }
        return out;
    }

    @Override public String toString() { return "AnthropicChatModel[url=" + url + ", model=" + model + ", role=" + role + ", apiKey=***]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private String baseUrl;
        private String apiKey;
        private String version = "2023-06-01";
        private int thinkingBudget;
        private String promptCache = "auto";

        /** {@code cache_control} on the system prompt: auto (only to api.anthropic.com), on, off. */
        public Builder promptCache(String mode) { this.promptCache = mode; return this; }
        private Builder() { model = "claude-sonnet-4-6"; }

        public Builder baseUrl(String u) { this.baseUrl = u; return this; }
        public Builder apiKey(String k) { this.apiKey = k; return this; }
        public Builder version(String v) { this.version = v; return this; }
        /** Extended thinking budget in tokens (0 = off, the default). */
        public Builder thinkingBudget(int n) { this.thinkingBudget = n; return this; }

        @Override public AnthropicChatModel build() { return new AnthropicChatModel(this); }
    }
}
