package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** The status → exception table for every HTTP backend, and Retry-After handling. */
class HttpStatusTableTest {
    MockWebServer server;

    @BeforeEach void start() throws Exception { server = new MockWebServer(); server.start(); }

    @AfterEach void stop() throws Exception { server.shutdown(); }

    static final List<String> BACKENDS = List.of("openai_compatible", "openai_chat", "qwen_chat", "minimax_chat", "claude_chat");

    static ChatModel model(String backend, String url) {
        return switch (backend) {
            case "openai_compatible" -> OpenAiCompatibleChatModel.builder().baseUrl(url).backoff(Backoff.NONE).build();
            case "openai_chat" -> OpenAiChatModel.builder().endpoint(url).authMode("api_key").apiKey("k-1234567").backoff(Backoff.NONE).build();
            case "qwen_chat" -> QwenChatModel.builder().baseUrl(url).backoff(Backoff.NONE).build();
            case "minimax_chat" -> MiniMaxChatModel.builder().baseUrl(url).backoff(Backoff.NONE).build();
            default -> AnthropicChatModel.builder().baseUrl(url).apiKey("sk-ant-1234567").backoff(Backoff.NONE).build();
        };
    }

    static Stream<Arguments> table() {
        List<Arguments> out = new ArrayList<>();
        int[][] rows = {{400, 0}, {401, 0}, {403, 0}, {404, 0}, {408, 1}, {409, 1}, {429, 1}, {500, 1}, {503, 1}};
        for (String b : BACKENDS) for (int[] r : rows) out.add(Arguments.of(b, r[0], r[1] == 1));
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: HTTP {1} retriable={2}")
    @MethodSource("table")
    void mapsEveryStatusToTheRightExceptionWithOneLineMessage(String backend, int status, boolean retriable) {
        server.enqueue(new MockResponse().setResponseCode(status).setBody("{\"error\":{\"message\":\"nope\\nsecond line\"}}"));
        server.enqueue(new MockResponse().setResponseCode(status).setBody("{\"error\":{\"message\":\"nope\\nsecond line\"}}"));
        ChatModel m = model(backend, server.url("/v1").toString());

        BackendException e = assertThrows(BackendException.class, () -> m.chat(ChatRequest.builder().user("x").retries(2).build()));

        assertEquals(retriable ? BackendException.Retriable.class : BackendException.NonRetriable.class, e.getClass());
        assertEquals(status, e.status());
        assertEquals(retriable ? 2 : 1, server.getRequestCount(), "retriable statuses are retried, others are not");
        assertTrue(e.getMessage().startsWith(backend + ": HTTP " + status + ": nope second line"), e.getMessage());
    }

    @Test void retryAfterIsHonouredButNeverBeyondTheCap() {
        Backoff b = new Backoff(java.time.Duration.ofMillis(10), java.time.Duration.ofMillis(50), 0);
        assertEquals(50, b.delay(0, java.time.Duration.ofSeconds(100)).toMillis());
        assertEquals(0, b.delay(3, java.time.Duration.ZERO).toMillis());
        assertEquals(10, b.delay(0, null).toMillis());
        assertEquals(40, b.delay(2, null).toMillis());
        assertEquals(50, b.delay(9, null).toMillis());

        server.enqueue(new MockResponse().setResponseCode(503).setHeader("Retry-After", "100"));
        server.enqueue(new MockResponse().setBody(OpenAiCompatibleChatModelTest.OK));
        Function<String, ChatModel> f = url -> OpenAiCompatibleChatModel.builder().baseUrl(url).backoff(b).build();
        assertEquals("hello", f.apply(server.url("/v1").toString()).chat(ChatRequest.builder().user("x").retries(2).build()).text());
    }
}
