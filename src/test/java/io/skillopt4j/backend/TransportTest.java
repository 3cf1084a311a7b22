package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Issue #18 (transport) and #16 item 3: stale pooled connections are retried transparently, unreachable servers
 * fail at once with one line and no backoff, retry chatter goes to counters and the run's transport log (never a
 * log record at INFO, so never stderr), and openai_compatible never falls back to a real provider.
 */
class TransportTest {
    static final String OK = OpenAiCompatibleChatModelTest.OK;
    /** A backoff long enough that a retried unreachable server would be noticed: every test here must not sleep. */
    static final Backoff SLOW = new Backoff(Duration.ofSeconds(60), Duration.ofSeconds(60), 0);

    MockWebServer server;
    final List<LogRecord> records = new ArrayList<>();
    final Logger http = Logger.getLogger("io.skillopt4j.backend.http");
    final Handler capture = new Handler() {
        @Override public void publish(LogRecord r) { synchronized (records) { records.add(r); } }
        @Override public void flush() { }
        @Override public void close() { }
    };

    @BeforeEach void start() throws Exception {
        server = new MockWebServer();
        server.start();
        http.addHandler(capture);
        http.setLevel(Level.ALL);
    }

    @AfterEach void stop() throws Exception {
        http.removeHandler(capture);
        http.setLevel(null);
        server.shutdown();
    }

    private OpenAiCompatibleChatModel.Builder model(String baseUrl, UsageMeter meter) {
        return OpenAiCompatibleChatModel.builder().baseUrl(baseUrl).model("m").apiKey("sk-transport-secret-0123456789")
                .meter(meter).role("target");
    }

    private static ChatRequest req(int retries) { return ChatRequest.builder().user("x").stage("rollout").retries(retries).build(); }

    @SuppressWarnings("unchecked")
    private static long fault(UsageMeter m, String kind) {
        Object total = m.faultSummary().get("_total");
        return total instanceof Map<?, ?> t && t.get(kind) instanceof Number n ? n.longValue() : 0;
    }

    private List<LogRecord> infoOrAbove() {
        synchronized (records) { return records.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue()).toList(); }
    }

    @Test void a429ThenAStalePooledConnectionThenA200SucceedsWithinTwoAttempts() {
        // the 429's connection is pooled; the server closes it when the retry arrives on it, before any response
        // ("unexpected end of stream"), as an HTTP/1.0-style server that closed it unannounced would
        server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "0").setBody("{\"error\":{\"message\":\"slow down\"}}"));
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
        server.enqueue(new MockResponse().setBody(OK));
        UsageMeter meter = new UsageMeter();
        ChatModel m = model(server.url("/v1").toString(), meter).backoff(Backoff.NONE).build();
        assertEquals("hello", m.chat(req(2)).text(), "the stale connection is not an attempt of its own");
        assertEquals(2, fault(meter, "retries"), "the 429 and the stale connection, both counted");
        assertEquals(0, fault(meter, "give_ups"));
        assertEquals(List.of(), infoOrAbove(), "retry chatter is not logged at INFO (stderr)");
    }

    @Test void aServerThatClosesAfterEveryReplyIsServedCallAfterCall() {
        for (int i = 0; i < 3; i++) server.enqueue(new MockResponse().setBody(OK).setSocketPolicy(SocketPolicy.DISCONNECT_AT_END));
        UsageMeter meter = new UsageMeter();
        ChatModel m = model(server.url("/v1").toString(), meter).backoff(Backoff.NONE).build();
        for (int i = 0; i < 3; i++) assertEquals("hello", m.chat(req(1)).text(), "call " + i);
        assertEquals(0, fault(meter, "give_ups"));
    }

    @Test void connectionRefusedFailsAtOnceWithOneLineNamingBackendAndUrl() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) { port = s.getLocalPort(); } // closed again: nothing listens there
        UsageMeter meter = new UsageMeter();
        String url = "http://127.0.0.1:" + port + "/v1";
        ChatModel m = model(url, meter).backoff(SLOW).build();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(req(5)));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("openai_compatible: cannot reach " + url + "/chat/completions: connection refused"), e.getMessage());
        assertEquals(1, fault(meter, "fast_fails"));
        assertEquals(0, fault(meter, "retries"), "no backoff retry");
    }

    @Test void anUnknownHostFailsAtOnce() {
        UsageMeter meter = new UsageMeter();
        ChatModel m = model("http://nonexistent.invalid/v1", meter).backoff(SLOW).build();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(req(5)));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("openai_compatible: cannot reach http://nonexistent.invalid/v1/chat/completions: unknown host"), e.getMessage());
        assertEquals(1, fault(meter, "fast_fails"));
        assertEquals(0, fault(meter, "retries"));
    }

    @Test void anInvalidUrlFailsAtOnce() {
        UsageMeter meter = new UsageMeter();
        ChatModel m = model("not-a-url", meter).backoff(SLOW).build();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> m.chat(req(5)));
        assertTrue(e.getMessage().startsWith("openai_compatible: invalid URL not-a-url/chat/completions"), e.getMessage());
        assertEquals(1, fault(meter, "fast_fails"));
    }

    @Test void retriesAndGiveUpsAreCountedAndWrittenToTheTransportLogWithoutSecrets(@TempDir Path dir) throws Exception {
        server.enqueue(new MockResponse().setResponseCode(500).setBody("{\"error\":{\"message\":\"boom\"}}"));
        server.enqueue(new MockResponse().setResponseCode(503));
        server.enqueue(new MockResponse().setBody(OK));
        for (int i = 0; i < 2; i++) server.enqueue(new MockResponse().setResponseCode(500));
        UsageMeter meter = new UsageMeter();
        ChatModel m = model(server.url("/v1").toString(), meter).backoff(Backoff.NONE).build();
        Path log = dir.resolve("run/logs/transport.log");
        TransportLog.during(log, () -> {
            assertEquals("hello", m.chat(req(3)).text());
            assertThrows(BackendException.Retriable.class, () -> m.chat(req(2)));
            return null;
        });
        assertEquals(3, fault(meter, "retries"));
        assertEquals(1, fault(meter, "give_ups"));
        Map<?, ?> rollout = (Map<?, ?>) meter.faultSummary().get("rollout");
        assertEquals(3L, ((Number) rollout.get("retries")).longValue(), rollout.toString());
        assertEquals(1L, ((Number) rollout.get("give_ups")).longValue(), rollout.toString());
        List<String> lines = Files.readAllLines(log);
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("retries target/rollout HTTP 500, retrying"), lines.get(0));
        assertTrue(lines.get(3).contains("give_ups target/rollout HTTP 500 after 2 attempts"), lines.get(3));
        assertFalse(String.join("\n", lines).contains("sk-transport-secret"), "no secret in the log");
        assertEquals(List.of(), infoOrAbove());
    }

    /** A call on a thread being stopped (a run interrupted, a rollout started ahead dropped) is no provider fault. */
    @Test void aCallOnAnInterruptedThreadFailsAtOnceAndIsNoFault(@TempDir Path dir) throws Exception {
        server.enqueue(new MockResponse().setBody(OK));
        UsageMeter meter = new UsageMeter();
        ChatModel m = model(server.url("/v1").toString(), meter).backoff(SLOW).build();
        Path log = dir.resolve("run/logs/transport.log");
        long t0 = System.nanoTime();
        TransportLog.during(log, () -> {
            Thread.currentThread().interrupt();
            try {
                assertThrows(RuntimeException.class, () -> m.chat(req(3)));
            } finally {
                Thread.interrupted();
            }
            return null;
        });
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "no backoff");
        assertEquals(0, fault(meter, "retries"));
        assertEquals(0, fault(meter, "give_ups"));
        assertFalse(Files.exists(log) && !Files.readAllLines(log).isEmpty(), "nothing in the transport log");
    }

    /** Interrupted while reading a reply's body: not a cut-off body to try again. */
    @Test void aCallInterruptedWhileReadingTheBodyIsNoMalformedBodyRetry(@TempDir Path dir) throws Exception {
        server.enqueue(new MockResponse().setBody(OK).throttleBody(4, 50, java.util.concurrent.TimeUnit.MILLISECONDS));
        UsageMeter meter = new UsageMeter();
        ChatModel m = model(server.url("/v1").toString(), meter).backoff(SLOW).build();
        Path log = dir.resolve("run/logs/transport.log");
        Thread caller = Thread.currentThread();
        Thread press = new Thread(() -> {
            try {
                server.takeRequest(); // sent: the interrupt lands while the body trickles in
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            caller.interrupt();
        });
        TransportLog.during(log, () -> {
            press.start();
            try {
                assertThrows(RuntimeException.class, () -> m.chat(req(3)));
            } finally {
                try { press.join(); } catch (InterruptedException e) { /* the flag is the test's */ }
                Thread.interrupted();
            }
            return null;
        });
        assertEquals(0, fault(meter, "retries"));
        assertEquals(1, server.getRequestCount(), "not sent again");
        assertFalse(Files.exists(log) && !Files.readAllLines(log).isEmpty(), "nothing in the transport log");
    }

    @Test void configuredBackendsTakeAtLeastHttpAttemptsAttempts() {
        for (int i = 0; i < 6; i++) server.enqueue(new MockResponse().setResponseCode(429).setHeader("Retry-After", "0"));
        server.enqueue(new MockResponse().setBody(OK));
        FlatConfig cfg = FlatConfig.of(Map.of("openai_compatible_base_url", server.url("/v1").toString(),
                "retry_backoff_base_ms", 0, "retry_backoff_cap_ms", 0));
        UsageMeter meter = new UsageMeter();
        ChatModel m = Backends.chat("openai_compatible", cfg, "target", Map.of(), meter);
        assertEquals("hello", m.chat(req(2)).text(), "default model.http_attempts (10) outlasts six 429s although the request asks for 2");
        assertEquals(7, server.getRequestCount());
        assertEquals(6, fault(meter, "retries"));
    }

    @Test void openAiCompatibleWithoutABaseUrlIsAConfigErrorNotApiOpenAiCom() {
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "openai_compatible", "target_backend", "openai_compatible"));
        ConfigException e = assertThrows(ConfigException.class, () -> Backends.roles(cfg, Map.of()));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("model.openai_compatible_base_url is not set"), e.getMessage());
        assertTrue(e.getMessage().contains("OPENAI_COMPATIBLE_BASE_URL"), e.getMessage());
        assertThrows(ConfigException.class, () -> OpenAiCompatibleChatModel.builder().model("m").build(), "the builder has no default server either");
        // a base URL from the environment (or the role's own) is enough
        assertNotNull(Backends.roles(cfg, Map.of("OPENAI_COMPATIBLE_BASE_URL", server.url("/v1").toString())));
    }
}
