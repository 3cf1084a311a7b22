package io.skillopt4j.backend.internal;

import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.internal.Hashes;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The shared pool without per-call wake-ups, and the memoised prompt-cache key: same results as before. */
class QuietPoolTest {
    @Test void callsReuseOnePooledConnectionAndAnIdleOneIsStillEvicted() throws Exception {
        ConnectionPool pool = QuietPool.create(5, 200, TimeUnit.MILLISECONDS);
        OkHttpClient client = new OkHttpClient.Builder().connectionPool(pool).build();
        try (MockWebServer server = new MockWebServer()) {
            for (int i = 0; i < 3; i++) server.enqueue(new MockResponse().setBody("ok " + i));
            for (int i = 0; i < 3; i++) {
                try (Response r = client.newCall(new Request.Builder().url(server.url("/x")).build()).execute()) {
                    assertEquals("ok " + i, r.body().string());
                }
            }
            for (int i = 0; i < 3; i++) assertEquals(i, server.takeRequest().getSequenceNumber()); // i-th request on its connection
            assertEquals(1, pool.connectionCount(), "one connection, reused by all three calls");
            // the idle connection still goes once its keep-alive is over, though no call woke the cleanup
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.connectionCount() > 0 && System.nanoTime() < deadline) Thread.sleep(50);
            assertEquals(0, pool.connectionCount());
        }
    }

    @Test void tooManyIdleConnectionsAreTrimmedToTheLimit() throws Exception {
        ConnectionPool pool = QuietPool.create(1, 5, TimeUnit.MINUTES);
        OkHttpClient client = new OkHttpClient.Builder().connectionPool(pool).build();
        try (MockWebServer a = new MockWebServer(); MockWebServer b = new MockWebServer()) {
            a.enqueue(new MockResponse().setBody("a"));
            b.enqueue(new MockResponse().setBody("b"));
            for (MockWebServer s : new MockWebServer[] {a, b}) {
                try (Response r = client.newCall(new Request.Builder().url(s.url("/")).build()).execute()) { r.body().string(); }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.idleConnectionCount() > 1 && System.nanoTime() < deadline) Thread.sleep(50);
            assertEquals(1, pool.idleConnectionCount());
        }
    }

    @Test void promptCacheKeyIsTheHashOfModelAndSystemPromptWhateverTheOrderOfRequests() {
        ChatRequest a = ChatRequest.of("# Skill A", "q1"), a2 = ChatRequest.of("# Skill A", "q2"), b = ChatRequest.of("# Skill B", "q1");
        String ka = "skillopt-" + Hashes.sha256Hex("m\u0000# Skill A").substring(0, 24);
        String kb = "skillopt-" + Hashes.sha256Hex("m\u0000# Skill B").substring(0, 24);
        String kaOther = "skillopt-" + Hashes.sha256Hex("n\u0000# Skill A").substring(0, 24);
        assertEquals(ka, PromptCaching.key("m", a));
        assertEquals(ka, PromptCaching.key("m", a2)); // same system prompt, other task: same key
        assertEquals(kb, PromptCaching.key("m", b));
        assertEquals(ka, PromptCaching.key("m", a));
        assertEquals(kaOther, PromptCaching.key("n", a)); // the model is part of the key
        assertNotEquals(ka, kb);
    }
}
