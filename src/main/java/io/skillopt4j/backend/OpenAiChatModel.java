package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.internal.AzureTokens;
import io.skillopt4j.backend.internal.ChatCompletionsWire;
import io.skillopt4j.backend.internal.Http;
import io.skillopt4j.backend.internal.HttpCall;
import io.skillopt4j.backend.internal.OpenAiBatches;
import io.skillopt4j.backend.internal.PromptCaching;
import io.skillopt4j.backend.internal.ResponsesWire;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;
import okhttp3.OkHttpClient;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Thread-safe. {@code openai_chat} / {@code azure_openai}: Azure OpenAI, or plain OpenAI with auth mode
 * {@code openai_compatible}. Deployments of the Codex/pro families go to the Responses API, as upstream routes them.
 *
 * <pre>{@code
 * ChatModel m = OpenAiChatModel.builder().endpoint("https://x.openai.azure.com").authMode("api_key")
 *         .apiKey(System.getenv("AZURE_OPENAI_API_KEY")).model("gpt-4o").build();
 * }</pre>
 */
public final class OpenAiChatModel extends AbstractChatModel {
    private final String endpoint;
    private final String apiVersion;
    private final String authMode;
    private final String apiKey;
    private final Supplier<String> tokens;
    private final String imageDetail;
    private final boolean responses;
    private final OkHttpClient client;
    private final boolean promptCache;

    private OpenAiChatModel(Builder b) {
        super(b.backendName, b);
        this.authMode = normalizeMode(b.authMode);
        this.endpoint = OpenAiCompatibleChatModel.stripSlash(b.endpoint == null ? "" : b.endpoint.trim());
        if (endpoint.isEmpty()) {
            throw new ConfigException(backend + ": azure_openai_endpoint is not set (set model.azure_openai_endpoint or AZURE_OPENAI_ENDPOINT)");
        }
        this.apiVersion = b.apiVersion == null || b.apiVersion.isBlank() ? (compat() ? "openai-compat" : "2024-12-01-preview") : b.apiVersion.trim();
        this.apiKey = b.apiKey == null ? "" : b.apiKey;
        Redactor.remember(b.apiKey);
        this.client = Http.client(defaultTimeout == null ? Duration.ofSeconds(600) : defaultTimeout, endpoint);
        String scope = b.adScope == null || b.adScope.isBlank() ? "https://cognitiveservices.azure.com/.default" : b.adScope;
        this.tokens = b.tokenProvider != null ? b.tokenProvider : switch (authMode) {
            case "api_key", "openai_compatible" -> null;
            case "managed_identity" -> AzureTokens.managedIdentity(backend, client, b.identityEndpoint, b.managedIdentityClientId, scope, env);
            default -> AzureTokens.azureCli(backend, b.azPath == null ? "az" : b.azPath, scope, env);
        };
        if (authMode.equals("api_key") && apiKey.isBlank()) {
            throw new ConfigException(backend + ": auth mode api_key needs a key: set AZURE_OPENAI_API_KEY (or model.azure_openai_api_key)");
        }
        this.imageDetail = b.imageDetail;
        this.responses = b.responsesApi != null ? b.responsesApi : ResponsesWire.usesResponses(model);
        this.promptCache = PromptCaching.enabled(b.promptCache, endpoint, "api.openai.com");
    }

    public static Builder builder() { return new Builder(); }

    static String normalizeMode(String m) {
        String v = m == null || m.isBlank() ? "azure_cli" : m.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "openai_compatible", "compat", "openai" -> "openai_compatible";
            case "api_key", "key" -> "api_key";
            case "managed_identity", "aad", "azure_ad" -> "managed_identity";
            case "azure_cli" -> "azure_cli";
            default -> throw ConfigException.badValue("", "azure_openai_auth_mode", m,
                    "one of api_key, azure_cli, managed_identity (aad, azure_ad), openai_compatible (compat, openai)");
        };
    }

    private boolean compat() { return authMode.equals("openai_compatible"); }

    public String authMode() { return authMode; }

    @Override protected boolean retriesInTransport() { return true; }

    @Override protected Map<String, Object> cacheParams(ChatRequest r) { return Map.of("endpoint", endpoint, "responses", responses); }

    @Override protected ChatResponse doChat(ChatRequest r) {
        Http.Policy policy = policy(r);
        if (responses) {
            String url = compat() ? endpoint + "/responses" : endpoint + "/openai/responses?api-version=" + apiVersion;
            return ResponsesWire.parse(HttpCall.postJson(client, url, headers(), body(r), policy));
        }
        String url = compat() ? endpoint + "/chat/completions"
                : endpoint + "/openai/deployments/" + model + "/chat/completions?api-version=" + apiVersion;
        return ChatCompletionsWire.parse(backend, HttpCall.postJson(client, url, headers(), body(r), policy), "call_");
    }

    private Map<String, String> headers() {
        if (!compat()) return tokens == null ? Map.of("api-key", apiKey) : Map.of("Authorization", "Bearer " + tokens.get());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + (apiKey.isBlank() ? "dummy" : apiKey));
        headers.put("User-Agent", "SkillOpt");
        return headers;
    }

    private Map<String, Object> body(ChatRequest r) {
        Map<String, Object> body;
        if (responses) {
            body = ResponsesWire.body(model, r, imageDetail);
        } else {
            body = Json.obj("model", model, "messages", ChatCompletionsWire.messages(r.messages(), imageDetail),
                    "max_completion_tokens", r.maxCompletionTokens());
            // some models reject effort together with tools, so upstream drops it then
            if (r.reasoningEffort() != null && !r.reasoningEffort().isBlank() && r.tools().isEmpty()) body.put("reasoning_effort", r.reasoningEffort());
            ChatCompletionsWire.putTools(body, r.tools(), r.toolChoice());
        }
        if (promptCache) body.put("prompt_cache_key", PromptCaching.key(model, r));
        return body;
    }

    /** Plain OpenAI only: Azure's global batch deployments are a separate resource type. */
    @Override protected BatchSupport batchSupport() {
        if (!compat()) return null;
        return batchOnce(() -> new BatchSupport(new OpenAiBatches(client, endpoint, responses ? "/v1/responses" : "/v1/chat/completions",
                headers(), batchPolicy()), this::body, n -> responses ? ResponsesWire.parse(n) : ChatCompletionsWire.parse(backend, n, "call_")));
    }

    @Override public String toString() {
        return "OpenAiChatModel[backend=" + backend + ", endpoint=" + endpoint + ", model=" + model + ", auth=" + authMode
                + ", role=" + role + ", apiKey=***]";
    }

    /** Not thread-safe; use once. */
    public static final class Builder extends AbstractChatModel.Builder<Builder> {
        private String backendName = "openai_chat";
        private String endpoint;
        private String apiVersion;
        private String apiKey;
        private String authMode;
        private String adScope;
        private String managedIdentityClientId;
        private String identityEndpoint;
        private String azPath;
        private Supplier<String> tokenProvider;
        private String imageDetail;
        private Boolean responsesApi;
        private String promptCache = "auto";

        /** {@code prompt_cache_key}: auto (only to api.openai.com), on, off. */
        public Builder promptCache(String mode) { this.promptCache = mode; return this; }
        private Builder() { model = "gpt-4o"; }

        public Builder endpoint(String e) { this.endpoint = e; return this; }
        public Builder apiVersion(String v) { this.apiVersion = v; return this; }
        public Builder apiKey(String k) { this.apiKey = k; return this; }
        /** api_key, azure_cli (default), managed_identity/aad/azure_ad, openai_compatible/compat/openai. */
        public Builder authMode(String m) { this.authMode = m; return this; }
        public Builder adScope(String s) { this.adScope = s; return this; }
        public Builder managedIdentityClientId(String id) { this.managedIdentityClientId = id; return this; }
        /** Default IMDS or App Service's IDENTITY_ENDPOINT. */
        public Builder identityEndpoint(String url) { this.identityEndpoint = url; return this; }
        public Builder azPath(String p) { this.azPath = p; return this; }
        /** Overrides the auth mode's own source of AAD bearer tokens. */
        public Builder tokenProvider(Supplier<String> p) { this.tokenProvider = p; return this; }
        public Builder imageDetail(String d) { this.imageDetail = d; return this; }
        /** Forces (true) or forbids (false) the Responses API; null routes by model family as upstream. */
        public Builder responsesApi(Boolean b) { this.responsesApi = b; return this; }
        public Builder backendName(String n) { this.backendName = n; return this; }

        @Override public OpenAiChatModel build() { return new OpenAiChatModel(this); }
    }
}
