package io.skillopt4j.backend;

import io.skillopt4j.backend.internal.ChatCompletionsWire;
import io.skillopt4j.backend.internal.Http;
import io.skillopt4j.backend.internal.HttpCall;
import io.skillopt4j.backend.internal.OpenAiBatches;
import io.skillopt4j.backend.internal.PromptCaching;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import okhttp3.OkHttpClient;

import java.time.Duration;
import java.util.Map;

/**
 * Thread-safe. {@code openai_compatible}: any server speaking OpenAI Chat Completions (vLLM, Ollama, llama.cpp,
 * LM Studio, the project's simulator); never sends reasoning effort (as upstream).
 *
 * <pre>{@code
 * ChatModel m = OpenAiCompatibleChatModel.builder().baseUrl("http://127.0.0.1:8000/v1").model("m").build();
 * m.chat("Say hi");
 * }</pre>
 */
public final class OpenAiCompatibleChatModel extends AbstractChatModel {
    private final String baseUrl;
    private final String apiKey;
    private final Double temperature;
    private final int maxTokens;
    private final String imageDetail;
    private final OkHttpClient client;
    private final boolean promptCache;
    private final String chatUrl;
    private final Map<String, String> headers;

    private OpenAiCompatibleChatModel(Builder b) {
        super(b.backendName, b);
        // no default server (SkillOpt's is api.openai.com): nothing reaches a real provider unless named
        if (b.baseUrl == null || b.baseUrl.isBlank())
            throw new io.skillopt4j.ConfigException(b.backendName + ": no base URL: call baseUrl(\"http://host:port/v1\") (a config sets "
                    + "model.openai_compatible_base_url or OPENAI_COMPATIBLE_BASE_URL)");
        this.baseUrl = stripSlash(b.baseUrl.trim());
        this.apiKey = b.apiKey == null || b.apiKey.isBlank() ? "dummy" : b.apiKey;
        Redactor.remember(b.apiKey);
        this.temperature = b.temperature;
        this.maxTokens = b.maxTokens <= 0 ? 8000 : b.maxTokens;
        this.imageDetail = b.imageDetail;
        this.client = Http.client(defaultTimeout == null ? Duration.ofSeconds(300) : defaultTimeout, baseUrl);
        this.promptCache = PromptCaching.enabled(b.promptCache, baseUrl, "api.openai.com");
        this.chatUrl = url(baseUrl);
        this.headers = Map.of("Authorization", "Bearer " + apiKey, "User-Agent", "SkillOpt4J");
    }

    public static Builder builder() { return new Builder(); }

    static String stripSlash(String s) { return s.replaceAll("/+\\z", ""); }

    @Override protected boolean retriesInTransport() { return true; }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) {
        return Json.obj("base_url", baseUrl, "temperature", temperature, "max_tokens", Math.min(r.maxCompletionTokens(), maxTokens));
    }

    @Override protected ChatResponse doChat(ChatRequest r) {
        return ChatCompletionsWire.parse(backend, HttpCall.postJson(client, chatUrl, headers, body(r), policy(r)), "call_");
    }

    private Map<String, Object> body(ChatRequest r) {
        Map<String, Object> body = Json.obj("model", model, "messages", ChatCompletionsWire.messages(r.messages(), imageDetail),
                "max_tokens", Math.min(r.maxCompletionTokens(), maxTokens));
        if (temperature != null) body.put("temperature", temperature);
        ChatCompletionsWire.putTools(body, r.tools(), r.toolChoice());
        if (promptCache) body.put("prompt_cache_key", PromptCaching.key(model, r));
        return body;
    }

    /** The OpenAI Batch API at the same base URL: {@code {base}/files}, {@code {base}/batches}. */
    @Override protected BatchSupport batchSupport() {
        String base = baseUrl.endsWith("/chat/completions") ? baseUrl.substring(0, baseUrl.length() - "/chat/completions".length()) : baseUrl;
        return batchOnce(() -> new BatchSupport(new OpenAiBatches(client, base, "/v1/chat/completions", headers, batchPolicy()),
                this::body, n -> ChatCompletionsWire.parse(backend, n, "call_")));
    }

    /** Appends /chat/completions unless the base already ends with it. */
    static String url(String base) {
        return base.endsWith("/chat/completions") ? base : base + "/chat/completions";
    }

    @Override public String toString() {
        return "OpenAiCompatibleChatModel[backend=" + backend + ", baseUrl=" + baseUrl + ", model=" + model + ", role=" + role + ", apiKey=***]";
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.EndpointBuilder<Builder> {
        private String backendName = "openai_compatible";
        private String imageDetail;
        private String promptCache = "auto";

        private Builder() { super("gpt-4o-mini", null); }

        /** {@code prompt_cache_key}: auto (only to api.openai.com), on, off. */
        public Builder promptCache(String mode) { this.promptCache = mode; return this; }

        /** {@code image_url.detail} (low, high, auto); null omits it. */
        public Builder imageDetail(String d) { this.imageDetail = d; return this; }
        /** The backend name reported in errors and usage. */
        public Builder backendName(String n) { this.backendName = n; return this; }

        @Override public OpenAiCompatibleChatModel build() { return new OpenAiCompatibleChatModel(this); }
    }
}
