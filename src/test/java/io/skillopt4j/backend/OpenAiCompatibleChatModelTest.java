package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

class OpenAiCompatibleChatModelTest {
    static final String OK = """
            {"id":"chatcmpl-1","object":"chat.completion","model":"qwen2.5-7b","choices":[{"index":0,
             "message":{"role":"assistant","content":"hello","reasoning_content":"thinking..."},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":4}}}""";

    MockWebServer server;

    @BeforeEach void start() throws Exception { server = new MockWebServer(); server.start(); }

    @AfterEach void stop() throws Exception { server.shutdown(); }

    OpenAiCompatibleChatModel.Builder builder() {
        return OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1/").toString()).model("qwen2.5-7b")
                .apiKey("sk-test-planted-0123456789").backoff(Backoff.NONE);
    }

    @Test void sendsExactRequestAndParsesUsageAndReasoning() throws Exception {
        server.enqueue(new MockResponse().setBody(OK));
        UsageMeter meter = new UsageMeter();
        ChatModel m = builder().meter(meter).role("optimizer").temperature(0.2).build();

        ChatResponse r = m.chat(ChatRequest.builder().system("sys").user("hi").maxCompletionTokens(20000)
                .reasoningEffort("high").stage("analyst").build());

        RecordedRequest req = server.takeRequest();
        assertEquals("POST", req.getMethod());
        assertEquals("/v1/chat/completions", req.getPath());
        assertEquals("Bearer sk-test-planted-0123456789", req.getHeader("Authorization"));
        assertTrue(req.getHeader("Content-Type").startsWith("application/json"));
        JsonNode body = Json.mapper().readTree(req.getBody().readUtf8());
        assertEquals(Json.mapper().readTree("""
                {"model":"qwen2.5-7b","messages":[{"role":"system","content":"sys"},{"role":"user","content":"hi"}],
                 "max_tokens":8000,"temperature":0.2}"""), body);
        assertEquals("hello", r.text());
        assertEquals("thinking...", r.reasoning());
        assertEquals(new Usage(12, 3, 15, 4), r.usage());
        assertEquals(1, meter.byRoleAndStage().get("optimizer/analyst").calls());
        assertEquals(15, meter.byRoleAndStage().get("optimizer/analyst").totalTokens());
    }

    @Test void sendsImagesAsImageUrlPartsAndToolsAndParsesToolCalls() throws Exception {
        server.enqueue(new MockResponse().setBody("""
                {"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
                 "function":{"name":"lookup","arguments":"{\\"q\\": \\"x\\"}"}}]}}],"usage":{"prompt_tokens":5,"completion_tokens":1}}"""));
        ChatModel m = builder().imageDetail("low").build();
        ToolSpec tool = new ToolSpec("lookup", "find things", Map.of("type", "object", "properties", Map.of("q", Map.of("type", "string"))));

        ChatResponse r = m.chat(ChatRequest.builder().message(ChatMessage.user("what is this", List.of("data:image/png;base64,AAAA")))
                .tools(List.of(tool)).toolChoice("lookup").build());

        JsonNode body = Json.mapper().readTree(server.takeRequest().getBody().readUtf8());
        assertEquals(Json.mapper().readTree("""
                [{"type":"text","text":"what is this"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA","detail":"low"}}]"""),
                body.path("messages").get(0).path("content"));
        assertEquals("function", body.path("tools").get(0).path("type").asText());
        assertEquals("lookup", body.path("tools").get(0).path("function").path("name").asText());
        assertEquals("lookup", body.path("tool_choice").path("function").path("name").asText());
        assertEquals(List.of(new ToolCall("call_1", "lookup", "{\"q\": \"x\"}")), r.toolCalls());
        assertEquals(6, r.usage().totalTokens());
    }

    @ParameterizedTest(name = "HTTP {0} -> {1}")
    @CsvSource({"400,NonRetriable", "401,NonRetriable", "403,NonRetriable", "404,NonRetriable", "408,Retriable",
            "409,Retriable", "429,Retriable", "500,Retriable", "503,Retriable"})
    void mapsStatusToExceptionType(int status, String type) {
        server.enqueue(new MockResponse().setResponseCode(status).setBody("{\"error\":{\"message\":\"provider says no\"}}"));
        ChatModel m = builder().build();

        BackendException e = assertThrows(BackendException.class, () -> m.chat(ChatRequest.builder().user("x").retries(1).build()));

        assertEquals(type, e.getClass().getSimpleName());
        assertEquals(status, e.status());
        assertTrue(e.getMessage().contains("openai_compatible") && e.getMessage().contains("HTTP " + status)
                && e.getMessage().contains("provider says no"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test void retries429ThenReturnsOneAnswerHonouringRetryAfter() {
        server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "0").setBody("{\"error\":{\"message\":\"slow down\"}}"));
        server.enqueue(new MockResponse().setBody(OK));
        UsageMeter meter = new UsageMeter();
        ChatModel m = builder().meter(meter).backoff(Backoff.ofMillis(1, 5)).build();

        ChatResponse r = m.chat(ChatRequest.builder().user("x").retries(3).build());

        assertEquals("hello", r.text());
        assertEquals(2, server.getRequestCount());
        assertEquals(1, meter.byStage().get("target").calls());
    }

    @Test void doesNotRetry401AndNamesBackendStatusAndMessage() {
        server.enqueue(new MockResponse().setResponseCode(401).setBody("{\"error\":{\"message\":\"Incorrect API key provided\"}}"));
        server.enqueue(new MockResponse().setBody(OK));
        ChatModel m = builder().build();

        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(ChatRequest.builder().user("x").retries(5).build()));

        assertEquals(1, server.getRequestCount());
        assertEquals("openai_compatible: HTTP 401: Incorrect API key provided", e.getMessage());
    }

    @Test void timesOutAndRetriesThenFailsRetriable() {
        server.enqueue(new MockResponse().setBody(OK).setHeadersDelay(400, TimeUnit.MILLISECONDS));
        server.enqueue(new MockResponse().setBody(OK).setHeadersDelay(400, TimeUnit.MILLISECONDS));
        ChatModel m = builder().build();

        BackendException e = assertThrows(BackendException.Retriable.class,
                () -> m.chat(ChatRequest.builder().user("x").timeout(Duration.ofMillis(100)).retries(2).build()));

        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        assertEquals(2, server.getRequestCount());
    }

    @Test void retriesConnectionResetThenSucceeds() {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AT_START));
        server.enqueue(new MockResponse().setBody(OK));
        ChatModel m = builder().build();

        assertEquals("hello", m.chat(ChatRequest.builder().user("x").retries(3).build()).text());
    }

    @Test void reasksWhenJsonRequiredAndReplyIsNotJsonThenFailsClearly() {
        server.enqueue(new MockResponse().setBody(OK.replace("\"hello\"", "\"not json\"")));
        server.enqueue(new MockResponse().setBody(OK.replace("\"hello\"", "\"```json\\n{\\\"a\\\": 1}\\n```\"")));
        ChatModel m = builder().build();
        assertEquals("```json\n{\"a\": 1}\n```", m.chat(ChatRequest.builder().user("x").jsonRequired(true).retries(2).build()).text());

        server.enqueue(new MockResponse().setBody(OK.replace("\"hello\"", "\"still prose\"")));
        BackendException e = assertThrows(BackendException.NonRetriable.class,
                () -> m.chat(ChatRequest.builder().user("y").jsonRequired(true).retries(1).build()));
        assertTrue(e.getMessage().contains("not the JSON object") && e.getMessage().contains("still prose"), e.getMessage());
    }

    @Test void factoryReadsBaseUrlFromEnvAndModelFromConfig() throws Exception {
        server.enqueue(new MockResponse().setBody(OK));
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "openai_compatible", "target_backend", "openai_compatible",
                "optimizer_model", "opt-m", "target_model", "tgt-m", "retry_backoff_base_ms", 1));
        ModelRoles roles = Backends.roles(cfg, Map.of("OPENAI_COMPATIBLE_BASE_URL", server.url("/v1").toString(),
                "TARGET_OPENAI_COMPATIBLE_API_KEY", "sk-role-key-abcdefghij"));

        roles.target().chat("hi");

        RecordedRequest req = server.takeRequest();
        assertEquals("/v1/chat/completions", req.getPath());
        assertEquals("Bearer sk-role-key-abcdefghij", req.getHeader("Authorization"));
        assertEquals("tgt-m", Json.mapper().readTree(req.getBody().readUtf8()).path("model").asText());
        assertEquals("opt-m", roles.optimizer().model());
        assertFalse(roles.target().toString().contains("sk-role-key"));
        assertEquals(1, roles.usage().byRoleAndStage().get("target/chat").calls());
    }
}
