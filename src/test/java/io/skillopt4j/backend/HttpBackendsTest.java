package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class HttpBackendsTest {
    static final String CHAT_OK = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11}}";
    MockWebServer server;
    @TempDir Path tmp;

    @BeforeEach void start() throws Exception { server = new MockWebServer(); server.start(); }

    @AfterEach void stop() throws Exception { server.shutdown(); }

    String base() { return server.url("").toString(); }

    static JsonNode body(RecordedRequest r) throws Exception { return Json.mapper().readTree(r.getBody().readUtf8()); }

    @Test void azureApiKeyModeUsesDeploymentPathApiKeyHeaderAndMaxCompletionTokens() throws Exception {
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        ChatModel m = OpenAiChatModel.builder().endpoint(base()).authMode("api_key").apiKey("azure-planted-key-0001").model("gpt-4o")
                .reasoningEffort("medium").backoff(Backoff.NONE).build();

        assertEquals("hi", m.chat(ChatRequest.of("s", "u")).text());

        RecordedRequest r = server.takeRequest();
        assertEquals("/openai/deployments/gpt-4o/chat/completions?api-version=2024-12-01-preview", r.getPath());
        assertEquals("azure-planted-key-0001", r.getHeader("api-key"));
        assertNull(r.getHeader("Authorization"));
        assertEquals(Json.mapper().readTree("{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\",\"content\":\"u\"}],"
                + "\"max_completion_tokens\":16384,\"reasoning_effort\":\"medium\"}"), body(r));
    }

    @Test void reasoningEffortIsDroppedWhenToolsArePresent() throws Exception {
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        ChatModel m = OpenAiChatModel.builder().endpoint(base()).authMode("compat").apiKey("sk-compat-planted-1234567").model("gpt-5")
                .backoff(Backoff.NONE).build();

        m.chat(ChatRequest.builder().user("u").reasoningEffort("high").tools(List.of(new ToolSpec("f", "d", null))).build());

        RecordedRequest r = server.takeRequest();
        assertEquals("/chat/completions", r.getPath());
        assertEquals("Bearer sk-compat-planted-1234567", r.getHeader("Authorization"));
        assertEquals("SkillOpt", r.getHeader("User-Agent"));
        JsonNode b = body(r);
        assertFalse(b.has("reasoning_effort"));
        assertEquals("f", b.path("tools").get(0).path("function").path("name").asText());
    }

    @Test void codexFamilyGoesToTheResponsesApi() throws Exception {
        server.enqueue(new MockResponse().setBody("""
                {"id":"resp_1","model":"gpt-5.1-codex","output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"why"}]},
                 {"type":"message","role":"assistant","content":[{"type":"output_text","text":"first"},{"type":"output_text","text":"last"}]},
                 {"type":"function_call","call_id":"fc_1","name":"f","arguments":"{}"}],
                 "usage":{"input_tokens":20,"output_tokens":5,"total_tokens":25,"input_tokens_details":{"cached_tokens":8}}}"""));
        ChatModel m = OpenAiChatModel.builder().endpoint(base()).authMode("api_key").apiKey("k-123456789").model("gpt-5.1-codex-mini")
                .apiVersion("2025-04-01-preview").backoff(Backoff.NONE).build();

        ChatResponse res = m.chat(ChatRequest.builder().system("S1").system("S2").user("U").reasoningEffort("low").maxCompletionTokens(100).build());

        RecordedRequest r = server.takeRequest();
        assertEquals("/openai/responses?api-version=2025-04-01-preview", r.getPath());
        assertEquals(Json.mapper().readTree("{\"model\":\"gpt-5.1-codex-mini\",\"instructions\":\"S1\\n\\nS2\",\"input\":[{\"role\":\"user\",\"content\":\"U\"}],"
                + "\"max_output_tokens\":100,\"reasoning\":{\"effort\":\"low\"}}"), body(r));
        assertEquals("last", res.text());
        assertEquals("why", res.reasoning());
        assertEquals(List.of(new ToolCall("fc_1", "f", "{}")), res.toolCalls());
        assertEquals(new Usage(20, 5, 25, 8), res.usage());
    }

    @Test void managedIdentityFetchesAnAadTokenOnceAndSendsItAsBearer() throws Exception {
        server.enqueue(new MockResponse().setBody("{\"access_token\":\"aad-token-planted-9876\",\"expires_on\":\"" + (System.currentTimeMillis() / 1000 + 3600) + "\"}"));
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        ChatModel m = OpenAiChatModel.builder().endpoint(base()).authMode("managed_identity").managedIdentityClientId("cid-1")
                .identityEndpoint(server.url("/msi/token").toString()).env(Map.of()).model("gpt-4o").backoff(Backoff.NONE).build();

        m.chat("a");
        m.chat("b");

        RecordedRequest tok = server.takeRequest();
        assertEquals("/msi/token?api-version=2018-02-01&resource=https%3A%2F%2Fcognitiveservices.azure.com&client_id=cid-1", tok.getPath());
        assertEquals("true", tok.getHeader("Metadata"));
        assertEquals("Bearer aad-token-planted-9876", server.takeRequest().getHeader("Authorization"));
        assertEquals("Bearer aad-token-planted-9876", server.takeRequest().getHeader("Authorization"));
        assertEquals(3, server.getRequestCount());
    }

    @Test void azureCliFallbackRunsAzAccountGetAccessToken() throws Exception {
        FakeCli az = FakeCli.install(tmp, "az").file("reply", "{\"accessToken\":\"az-token-planted-5555\",\"expires_on\":" + (System.currentTimeMillis() / 1000 + 3600) + "}");
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "openai_chat", "target_backend", "openai_chat", "az_path", az.path()));

        ChatModel m = Backends.chat("openai_chat", cfg, "target", FakeCli.env(Map.of("AZURE_OPENAI_ENDPOINT", base())), new UsageMeter());
        m.chat("x");

        assertEquals(List.of(az.path(), "account", "get-access-token", "--resource", "https://cognitiveservices.azure.com", "-o", "json"), az.argv(1));
        assertEquals("Bearer az-token-planted-5555", server.takeRequest().getHeader("Authorization"));
        assertFalse(az.env(1).contains("mm-planted"));
    }

    @Test void azureWithoutEndpointOrKeyFailsWithOneLineNamingTheSetting() {
        ConfigException e = assertThrows(ConfigException.class, () -> OpenAiChatModel.builder().authMode("api_key").build());
        assertTrue(e.getMessage().contains("azure_openai_endpoint"));
        ConfigException k = assertThrows(ConfigException.class, () -> OpenAiChatModel.builder().endpoint(base()).authMode("api_key").build());
        assertTrue(k.getMessage().contains("AZURE_OPENAI_API_KEY"));
        assertThrows(ConfigException.class, () -> OpenAiChatModel.builder().endpoint(base()).authMode("kerberos").build());
    }

    @Test void qwenSendsTheThreeThinkingModes() throws Exception {
        for (QwenChatModel.ThinkingMode mode : QwenChatModel.ThinkingMode.values()) server.enqueue(new MockResponse().setBody(CHAT_OK));
        JsonNode[] bodies = new JsonNode[3];
        for (QwenChatModel.ThinkingMode mode : QwenChatModel.ThinkingMode.values()) {
            QwenChatModel.builder().baseUrl(base() + "v1").thinking(mode).backoff(Backoff.NONE).build().chat("x");
            RecordedRequest r = server.takeRequest();
            assertEquals("/v1/chat/completions", r.getPath());
            assertNull(r.getHeader("Authorization"), "no key, no Authorization header");
            bodies[mode.ordinal()] = body(r);
        }
        assertFalse(bodies[0].has("chat_template_kwargs"));
        assertEquals("{\"enable_thinking\":true}", bodies[1].path("chat_template_kwargs").toString());
        assertEquals("{\"enable_thinking\":false}", bodies[2].path("chat_template_kwargs").toString());
        assertEquals(0.7, bodies[0].path("temperature").asDouble());
        assertEquals(8000, bodies[0].path("max_tokens").asInt());
        assertEquals(QwenChatModel.ThinkingMode.SERVER_DEFAULT, QwenChatModel.ThinkingMode.parse("k", "Auto"));
        assertThrows(ConfigException.class, () -> QwenChatModel.ThinkingMode.parse("qwen_chat_thinking_mode", "sometimes"));
    }

    @Test void qwenFactoryHonoursRoleEnvLegacyFlagAndBlankTemperature() throws Exception {
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        FlatConfig cfg = FlatConfig.of(Map.of("qwen_chat_temperature", "", "qwen_chat_use_max_completion_tokens", true));
        ChatModel m = Backends.chat("qwen_chat", cfg, "target", Map.of("TARGET_QWEN_CHAT_BASE_URL", base() + "v1/chat/completions",
                "QWEN_CHAT_BASE_URL", "http://wrong.invalid", "QWEN_CHAT_ENABLE_THINKING", "false", "QWEN_CHAT_API_KEY", "qwen-planted-key-77"), new UsageMeter());

        m.chat("x");

        RecordedRequest r = server.takeRequest();
        assertEquals("/v1/chat/completions", r.getPath());
        assertEquals("Bearer qwen-planted-key-77", r.getHeader("Authorization"));
        JsonNode b = body(r);
        assertFalse(b.has("temperature"));
        assertFalse(b.has("chat_template_kwargs"), "legacy false means server_default");
        assertEquals(8000, b.path("max_completion_tokens").asInt());
        assertEquals("Qwen/Qwen3.5-4B", m.model());
    }

    @Test void miniMaxMapsRegionsAndAlwaysSendsThinking() throws Exception {
        assertEquals("https://api.minimaxi.com/v1", MiniMaxChatModel.baseUrlForRegion("CN-ZH"));
        assertEquals("https://api.minimax.io/v1", MiniMaxChatModel.baseUrlForRegion(""));
        assertThrows(ConfigException.class, () -> MiniMaxChatModel.baseUrlForRegion("mars"));
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        server.enqueue(new MockResponse().setBody(CHAT_OK));
        MiniMaxChatModel.builder().region("cn_zh").baseUrl(base() + "v1").apiKey("mm-key-123456").model("MiniMax-M3").backoff(Backoff.NONE).build().chat("x");
        MiniMaxChatModel.builder().baseUrl(base() + "v1").model("MiniMax-M2.5").backoff(Backoff.NONE).build().chat("x");
        JsonNode b1 = body(server.takeRequest());
        assertEquals("disabled", b1.path("thinking").path("type").asText());
        assertFalse(b1.has("chat_template_kwargs"));
        assertEquals("adaptive", body(server.takeRequest()).path("thinking").path("type").asText());
    }

    @Test void anthropicMessagesApiSendsHeadersBlocksAndParsesToolUse() throws Exception {
        server.enqueue(new MockResponse().setBody("""
                {"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-6",
                 "content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Let me look."},
                  {"type":"tool_use","id":"toolu_9","name":"lookup","input":{"q":"x"}}],
                 "stop_reason":"tool_use","usage":{"input_tokens":30,"cache_read_input_tokens":10,"output_tokens":12}}"""));
        server.enqueue(new MockResponse().setResponseCode(401).setBody("{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}"));
        ChatModel m = Backends.chat("claude_chat", FlatConfig.of(Map.of("claude_chat_transport", "api", "anthropic_base_url", base())), "optimizer",
                Map.of("ANTHROPIC_API_KEY", "sk-ant-planted-000111222"), new UsageMeter());

        ChatResponse r = m.chat(ChatRequest.builder().system("S").message(ChatMessage.user("see", List.of("data:image/png;base64,QUJD")))
                .message(ChatMessage.assistant("", List.of(new ToolCall("toolu_1", "lookup", "{\"q\":\"a\"}"))))
                .message(ChatMessage.tool("toolu_1", "found")).tools(List.of(new ToolSpec("lookup", "d", null))).toolChoice("required").build());

        RecordedRequest req = server.takeRequest();
        assertEquals("/v1/messages", req.getPath());
        assertEquals("sk-ant-planted-000111222", req.getHeader("x-api-key"));
        assertEquals("2023-06-01", req.getHeader("anthropic-version"));
        JsonNode b = body(req);
        assertEquals("S", b.path("system").asText());
        assertEquals(Json.mapper().readTree("{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"QUJD\"}}"), b.path("messages").get(0).path("content").get(0));
        assertEquals("tool_use", b.path("messages").get(1).path("content").get(0).path("type").asText());
        assertEquals("tool_result", b.path("messages").get(2).path("content").get(0).path("type").asText());
        assertEquals(Json.mapper().readTree("{\"type\":\"any\"}"), b.path("tool_choice"));
        assertEquals("d", b.path("tools").get(0).path("description").asText());
        assertEquals("Let me look.", r.text());
        assertEquals("hmm", r.reasoning());
        assertEquals(List.of(new ToolCall("toolu_9", "lookup", "{\"q\":\"x\"}")), r.toolCalls());
        assertEquals(new Usage(40, 12, 52, 10), r.usage());
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat("again"));
        assertEquals("claude_chat: HTTP 401: invalid x-api-key", e.getMessage());
    }
}
