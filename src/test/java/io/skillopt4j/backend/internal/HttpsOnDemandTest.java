package io.skillopt4j.backend.internal;

import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The cleartext client that an {@code http://} base URL gets sets up no TLS, and what needs TLS anyway (an https
 * request, a redirect to https) is made by the TLS-capable client: a loopback socket posing as the https server
 * receives a TLS handshake record, where the cleartext client itself would throw "CLEARTEXT-only client".
 */
class HttpsOnDemandTest {
    MockWebServer server;
    ServerSocket tls;
    final CompletableFuture<Integer> firstByte = new CompletableFuture<>();

    @BeforeEach void start() throws IOException {
        server = new MockWebServer();
        server.start();
        tls = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> { // records the first byte the client sends, then hangs up
            try (Socket s = tls.accept()) {
                firstByte.complete(s.getInputStream().read());
            } catch (IOException e) {
                firstByte.completeExceptionally(e);
            }
        }, "https-stand-in");
        t.setDaemon(true);
        t.start();
    }

    @AfterEach void stop() throws IOException {
        server.shutdown();
        tls.close();
    }

    @Test void anHttpBaseUrlGetsTheCleartextClientAndAnHttpsOneTheTlsClient() {
        OkHttpClient http = Http.client(Duration.ofSeconds(7), "http://127.0.0.1:8000/v1");
        assertEquals(List.of(ConnectionSpec.CLEARTEXT), http.connectionSpecs());
        assertThrows(IllegalStateException.class, http::sslSocketFactory, "no TLS context was built for it");
        assertEquals(7_000, http.readTimeoutMillis());
        OkHttpClient https = Http.client(Duration.ofSeconds(7), "https://api.openai.com/v1");
        assertEquals(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT), https.connectionSpecs());
        assertNotNull(https.sslSocketFactory());
        assertSame(http.connectionPool(), https.connectionPool(), "one pool");
        assertSame(http.dispatcher(), https.dispatcher(), "one dispatcher");
        assertEquals(https.interceptors().size() + 1, http.interceptors().size(), "the same interceptors, plus the hand-over");
    }

    @Test void anHttpCallStaysOnTheCleartextClient() throws IOException {
        server.enqueue(new MockResponse().setBody("ok"));
        OkHttpClient http = Http.client(Duration.ofSeconds(5), server.url("/v1").toString());
        try (var r = http.newCall(new Request.Builder().url(server.url("/v1/x")).build()).execute()) {
            assertEquals("ok", r.body().string());
        }
    }

    @Test void aRedirectToHttpsIsFollowedByTheTlsClient() throws Exception {
        // the cleartext client gets the redirect and hands the request over; the TLS client sends it again and follows
        for (int i = 0; i < 2; i++)
            server.enqueue(new MockResponse().setResponseCode(307).setHeader("Location", "https://127.0.0.1:" + tls.getLocalPort() + "/v1/x"));
        OkHttpClient http = Http.client(Duration.ofSeconds(5), server.url("/v1").toString());
        assertThrows(IOException.class, () -> http.newCall(new Request.Builder().url(server.url("/v1/x")).build()).execute().close());
        assertEquals(TLS_HANDSHAKE, firstByte.get(5, TimeUnit.SECONDS), "the redirect target got a TLS handshake");
        assertEquals(2, server.getRequestCount());
    }

    @Test void anHttpsRequestThroughTheCleartextClientIsMadeByTheTlsClient() throws Exception {
        OkHttpClient http = Http.client(Duration.ofSeconds(5), server.url("/v1").toString());
        assertThrows(IOException.class, () -> http.newCall(new Request.Builder()
                .url("https://127.0.0.1:" + tls.getLocalPort() + "/v1/x").build()).execute().close());
        assertEquals(TLS_HANDSHAKE, firstByte.get(5, TimeUnit.SECONDS), "the https server got a TLS handshake");
    }

    /** The content type of a TLS handshake record, the first byte of a ClientHello. */
    private static final int TLS_HANDSHAKE = 0x16;
}
