package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.ChatCompletionsWire;
import io.skillopt4j.backend.internal.Http;
import io.skillopt4j.backend.internal.HttpCall;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import okhttp3.OkHttpClient;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/** Thread-safe. {@code qwen_chat}: a vLLM/SGLang server hosting Qwen. */
public final class QwenChatModel extends AbstractChatModel {
    /** {@code server_default} sends no field; the others {@code chat_template_kwargs.enable_thinking}. */
    public enum ThinkingMode { SERVER_DEFAULT, ENABLED, DISABLED;
        /** Parses upstream's spellings; anything else throws naming {@code key}. */
        public static ThinkingMode parse(String key, Object v) {
            if (v == null) return SERVER_DEFAULT;
            if (v instanceof Boolean b) return b ? ENABLED : DISABLED;
            String s = String.valueOf(v).trim().toLowerCase(Locale.ROOT).replace('-', '_');
            return switch (s) {
                case "", "server_default", "unset", "auto", "none", "null" -> SERVER_DEFAULT;
                case "1", "true", "yes", "on", "enabled", "enable" -> ENABLED;
                case "0", "false", "no", "off", "disabled", "disable" -> DISABLED;
                default -> throw ConfigException.badValue("", key, String.valueOf(v), "one of server_default, enabled, disabled");
            };
        }

        public String wire() { return name().toLowerCase(Locale.ROOT); }
    }

    private final String url;
    private final String apiKey;
    private final Double temperature;
    private final int maxTokens;
    private final boolean useMaxCompletionTokens;
    private final ThinkingMode thinking;
    private final String imageDetail;
    private final OkHttpClient client;

    private QwenChatModel(Builder b) {
        super("qwen_chat", b);
        String base = OpenAiCompatibleChatModel.stripSlash(b.baseUrl == null || b.baseUrl.isBlank() ? ModelKey.QWEN_CHAT_BASE_URL.text() : b.baseUrl.trim());
        this.url = OpenAiCompatibleChatModel.url(base);
        this.apiKey = b.apiKey == null ? "" : b.apiKey;
        Redactor.remember(b.apiKey);
        this.temperature = b.temperature;
        this.maxTokens = b.maxTokens <= 0 ? 8000 : b.maxTokens;
        this.useMaxCompletionTokens = b.useMaxCompletionTokens;
        this.thinking = b.thinking == null ? ThinkingMode.SERVER_DEFAULT : b.thinking;
        this.imageDetail = b.imageDetail;
        this.client = Http.client(defaultTimeout == null ? Duration.ofSeconds(300) : defaultTimeout, url);
    }

    public static Builder builder() { return new Builder(); }

    public ThinkingMode thinkingMode() { return thinking; }

    @Override protected boolean retriesInTransport() { return true; }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) {
        return Map.of("url", url, "thinking", thinking.wire(), "temperature", String.valueOf(temperature));
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        Map<String, Object> body = Json.obj("model", model, "messages", ChatCompletionsWire.messages(r.messages(), imageDetail),
                useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens", Math.min(r.maxCompletionTokens(), maxTokens));
        if (thinking != ThinkingMode.SERVER_DEFAULT) body.put("chat_template_kwargs", Map.of("enable_thinking", thinking == ThinkingMode.ENABLED));
        if (temperature != null) body.put("temperature", temperature);
        ChatCompletionsWire.putTools(body, r.tools(), r.toolChoice());
        Map<String, String> headers = apiKey.isBlank() ? Map.of() : Map.of("Authorization", "Bearer " + apiKey);
        return ChatCompletionsWire.parse(backend, HttpCall.postJson(client, url, headers, body, policy(r)), "qwen_tool_");
    }

    @Override public String toString() { return "QwenChatModel[url=" + url + ", model=" + model + ", thinking=" + thinking.wire() + ", role=" + role + ", apiKey=***]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.EndpointBuilder<Builder> {
        private boolean useMaxCompletionTokens;
        private ThinkingMode thinking = ThinkingMode.SERVER_DEFAULT;
        private String imageDetail;

        private Builder() { super("Qwen/Qwen3.5-4B", 0.7); } // temperature 0.7 unless set (null omits it)

        public Builder useMaxCompletionTokens(boolean b) { this.useMaxCompletionTokens = b; return this; }
        public Builder thinking(ThinkingMode m) { this.thinking = m; return this; }
        public Builder imageDetail(String d) { this.imageDetail = d; return this; }

        @Override public QwenChatModel build() { return new QwenChatModel(this); }
    }
}
