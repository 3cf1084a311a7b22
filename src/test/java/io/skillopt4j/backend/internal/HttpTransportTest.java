package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.Backoff;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The one OkHttp client against loopback servers: proxies from the environment (a MockWebServer acting as the
 * proxy), NO_PROXY, 307/308 redirects with the POST body kept, cancellation and the call timeout, a cut-off body.
 */
class HttpTransportTest {
    static final String OK = "{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}";
    final Http.Policy policy = new Http.Policy("openai_compatible", 2, Backoff.NONE, Duration.ofSeconds(5));
    MockWebServer server, proxy;

    @BeforeEach void start() throws IOException {
        server = new MockWebServer();
        server.start();
        proxy = new MockWebServer();
        proxy.start();
    }

    @AfterEach void stop() throws IOException {
        server.shutdown();
        proxy.shutdown();
    }

    private static MockResponse ok() { return new MockResponse().setBody(OK).setHeader("Content-Type", "application/json"); }

    private static OkHttpClient withEnv(Map<String, String> env) {
        EnvProxies p = new EnvProxies(env, null);
        return Http.client(Duration.ofSeconds(5)).newBuilder().proxySelector(p).proxyAuthenticator(p.authenticator()).build();
    }

    @Test void aRequestGoesThroughTheHttpProxyTheEnvironmentNames() throws Exception {
        proxy.enqueue(ok());
        OkHttpClient c = withEnv(Map.of("HTTP_PROXY", "http://127.0.0.1:" + proxy.getPort()));
        JsonNode r = HttpCall.postJson(c, "http://llm.example:8000/v1/chat/completions", Map.of(), Map.of("q", 1), policy);
        assertEquals("hi", r.at("/choices/0/message/content").asText());
        RecordedRequest seen = proxy.takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST http://llm.example:8000/v1/chat/completions HTTP/1.1", seen.getRequestLine(), "the proxy got the absolute URL");
        assertEquals("{\"q\": 1}", seen.getBody().readUtf8());
        assertEquals(0, server.getRequestCount());
    }

    @Test void theProxysCredentialsAnswerIts407() throws Exception {
        proxy.enqueue(new MockResponse().setResponseCode(407).setHeader("Proxy-Authenticate", "Basic realm=\"p\""));
        proxy.enqueue(ok());
        OkHttpClient c = withEnv(Map.of("http_proxy", "http://alice:s3cret@127.0.0.1:" + proxy.getPort()));
        HttpCall.postJson(c, "http://llm.example/v1/chat/completions", Map.of(), Map.of("q", 1), policy);
        proxy.takeRequest();
        assertEquals(okhttp3.Credentials.basic("alice", "s3cret"), proxy.takeRequest().getHeader("Proxy-Authorization"));
    }

    @Test void noProxyReachesTheServerDirectly() throws Exception {
        server.enqueue(ok());
        OkHttpClient c = withEnv(Map.of("HTTP_PROXY", "http://127.0.0.1:" + proxy.getPort(), "NO_PROXY", "localhost,127.0.0.1"));
        HttpCall.postJson(c, server.url("/v1/chat/completions").toString(), Map.of(), Map.of("q", 1), policy);
        assertEquals(1, server.getRequestCount());
        assertEquals(0, proxy.getRequestCount(), "bypassed");
    }

    @Test void redirects307And308AreFollowedWithThePostBody() throws Exception {
        for (int code : new int[] {307, 308}) {
            server.enqueue(new MockResponse().setResponseCode(code).setHeader("Location", "/moved/chat/completions"));
            server.enqueue(ok());
            JsonNode r = HttpCall.postJson(Http.client(Duration.ofSeconds(5)), server.url("/v1/chat/completions").toString(),
                    Map.of(), Map.of("q", code), policy);
            assertEquals("hi", r.at("/choices/0/message/content").asText());
            assertEquals("/v1/chat/completions", server.takeRequest().getPath());
            RecordedRequest moved = server.takeRequest();
            assertEquals("POST /moved/chat/completions HTTP/1.1", moved.getRequestLine(), code + " keeps the method");
            assertEquals("{\"q\": " + code + "}", moved.getBody().readUtf8(), code + " keeps the body");
        }
    }

    @Test void cancelEndsACallInFlightAndTheCallTimeoutBoundsOne() throws Exception {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        okhttp3.Call call = Http.client(Duration.ofSeconds(60)).newCall(new okhttp3.Request.Builder().url(server.url("/v1"))
                .tag(Http.Policy.class, policy).build());
        new Thread(() -> {
            try {
                server.takeRequest();
                call.cancel();
            } catch (InterruptedException ignored) {
                // the test fails on its own
            }
        }).start();
        IOException e = assertThrows(IOException.class, call::execute);
        assertTrue(call.isCanceled(), String.valueOf(e));
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        OkHttpClient bounded = Http.client(Duration.ofSeconds(60)).newBuilder().callTimeout(Duration.ofMillis(300)).build();
        BackendException t = assertThrows(BackendException.class, () -> HttpCall.postJson(bounded, server.url("/v1").toString(),
                Map.of(), Map.of("q", 1), new Http.Policy("openai_compatible", 1, Backoff.NONE, null)));
        assertTrue(t.getMessage().contains("timed out"), t.getMessage());
    }

    @Test void anInterruptEndsACallWaitingForItsFirstByte() throws Exception {
        // a stopped stage interrupts its workers: their calls must end now, not when the read timeout runs out
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean stillInterrupted = new java.util.concurrent.atomic.AtomicBoolean();
        Thread caller = new Thread(() -> {
            try {
                HttpCall.postJson(Http.client(Duration.ofSeconds(60)), server.url("/v1").toString(), Map.of(), Map.of("q", 1),
                        new Http.Policy("openai_compatible", 3, Backoff.NONE, null));
            } catch (Throwable t) {
                thrown.set(t);
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        assertNotNull(server.takeRequest(10, TimeUnit.SECONDS), "the call reached the server");
        Thread.sleep(200); // now waiting for the reply's first byte
        caller.interrupt();
        caller.join(10_000);
        assertFalse(caller.isAlive(), "the call ended with the interrupt");
        assertNotNull(thrown.get(), "an interrupted call is a failure, never an answer");
        assertTrue(stillInterrupted.get(), "the interrupt stays visible to the caller: " + thrown.get());
        assertEquals(1, server.getRequestCount(), "an interrupted call is not retried");
    }

    @Test void aCutOffBodyIsRetriedAndThenReportedAsOneLine() {
        for (int i = 0; i < 2; i++)
            server.enqueue(new MockResponse().setBody(OK).setHeader("Content-Length", "500").setSocketPolicy(SocketPolicy.DISCONNECT_AT_END));
        BackendException e = assertThrows(BackendException.class, () -> HttpCall.postJson(Http.client(Duration.ofSeconds(5)),
                server.url("/v1").toString(), Map.of(), Map.of("q", 1), policy));
        assertEquals(2, server.getRequestCount(), "retried once");
        assertTrue(e.getMessage().startsWith("openai_compatible: request failed:"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test void noMainClassUsesOkHttpInternals() throws IOException {
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of("src/main/java"))) {
            var bad = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return java.nio.file.Files.readString(f).contains("okhttp3.internal");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
            assertTrue(bad.isEmpty(), "okhttp3.internal is not OkHttp's contract: " + bad);
        }
    }
}
