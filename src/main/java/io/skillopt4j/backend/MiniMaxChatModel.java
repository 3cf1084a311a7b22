package io.skillopt4j.backend;

import io.skillopt4j.config.ModelKey;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.ChatCompletionsWire;
import io.skillopt4j.backend.internal.Http;
import io.skillopt4j.backend.internal.HttpCall;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import okhttp3.OkHttpClient;

import java.util.Locale;
import java.util.Map;

/** Thread-safe. {@code minimax_chat}: MiniMax's OpenAI-style API; the region picks the base URL unless one is given. */
public final class MiniMaxChatModel extends AbstractChatModel {
    private final String url;
    private final String apiKey;
    private final Double temperature;
    private final int maxTokens;
    private final boolean enableThinking;
    private final OkHttpClient client;

    private MiniMaxChatModel(Builder b) {
        super("minimax_chat", b);
        String base = b.baseUrl == null || b.baseUrl.isBlank() ? baseUrlForRegion(b.region) : b.baseUrl.trim();
        this.url = OpenAiCompatibleChatModel.url(OpenAiCompatibleChatModel.stripSlash(base));
        this.apiKey = b.apiKey == null ? "" : b.apiKey;
        Redactor.remember(b.apiKey);
        this.temperature = b.temperature;
        this.maxTokens = b.maxTokens <= 0 ? ModelKey.MINIMAX_MAX_TOKENS.intValue() : b.maxTokens;
        this.enableThinking = b.enableThinking;
        this.client = Http.client(defaultTimeout == null ? ModelKey.MINIMAX_TIMEOUT_SECONDS.seconds() : defaultTimeout, url);
    }

    public static Builder builder() { return new Builder(); }

    /** Blank → global_en; unknown regions throw. */
    public static String normalizeRegion(String region) {
        String r = region == null ? "" : region.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        if (r.isEmpty()) return "global_en";
        if (!r.equals("global_en") && !r.equals("cn_zh")) throw ConfigException.badValue("", "minimax_region", region, "one of global_en, cn_zh");
        return r;
    }

    public static String baseUrlForRegion(String region) {
        return normalizeRegion(region).equals("cn_zh") ? "https://api.minimaxi.com/v1" : "https://api.minimax.io/v1";
    }

    /** M2.x cannot disable thinking. */
    public String thinkingType() {
        return model.startsWith("MiniMax-M2") || enableThinking ? "adaptive" : "disabled";
    }

    @Override protected boolean retriesInTransport() { return true; }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) {
        return Map.of("url", url, "thinking", thinkingType(), "temperature", String.valueOf(temperature));
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        Map<String, Object> body = Json.obj("model", model, "messages", ChatCompletionsWire.messages(r.messages(), null),
                "max_tokens", Math.min(r.maxCompletionTokens(), maxTokens), "thinking", Map.of("type", thinkingType()));
        if (temperature != null) body.put("temperature", temperature);
        ChatCompletionsWire.putTools(body, r.tools(), r.toolChoice());
        Map<String, String> headers = apiKey.isBlank() ? Map.of() : Map.of("Authorization", "Bearer " + apiKey);
        return ChatCompletionsWire.parse(backend, HttpCall.postJson(client, url, headers, body, policy(r)), "minimax_tool_");
    }

    @Override public String toString() { return "MiniMaxChatModel[url=" + url + ", model=" + model + ", role=" + role + ", apiKey=***]"; }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.EndpointBuilder<Builder> {
        private String region;
        private boolean enableThinking;

        private Builder() { super("MiniMax-M3", 0.7); } // temperature 0.7 unless set (null omits it)

        public Builder region(String r) { normalizeRegion(r); this.region = r; return this; }
        public Builder enableThinking(boolean b) { this.enableThinking = b; return this; }

        @Override public MiniMaxChatModel build() { return new MiniMaxChatModel(this); }
    }
}
