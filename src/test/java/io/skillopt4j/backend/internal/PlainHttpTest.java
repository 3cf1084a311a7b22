package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.backend.Backoff;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The plain-HTTP transport against real loopback servers: what goes on the wire, every way a reply can be framed,
 * keep-alive reuse, and when OkHttp is used instead (HTTPS, a proxy, the system property). Retries, stale sockets,
 * timeouts and the status table run over it in TransportTest, HttpStatusTableTest and OpenAiCompatibleChatModelTest,
 * and over OkHttp in their *OverOkHttpTest twins.
 */
class PlainHttpTest {
    static final String OK = "{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}";
    MockWebServer server;
    final OkHttpClient client = Http.client(Duration.ofSeconds(5), "http://127.0.0.1/");
    final Http.Policy policy = new Http.Policy("openai_compatible", 2, Backoff.NONE, Duration.ofSeconds(5));

    @BeforeEach void start() throws IOException { server = new MockWebServer(); server.start(); PlainHttp.evictAll(); }

    @AfterEach void stop() throws IOException { server.shutdown(); PlainHttp.evictAll(); }

    private JsonNode post(String url) {
        return HttpCall.postJson(client, url, Map.of("Authorization", "Bearer sk-test-0123456789"), Map.of("q", "héllo"), policy);
    }

    @Test void sendsOneWellFormedPostAndReusesTheConnection() throws Exception {
        for (int i = 0; i < 3; i++) server.enqueue(new MockResponse().setBody(OK).setHeader("Content-Type", "application/json"));
        for (int i = 0; i < 3; i++) assertEquals("hi", post(server.url("/v1/chat/completions?x=1").toString()).at("/choices/0/message/content").asText());
        for (int i = 0; i < 3; i++) {
            RecordedRequest r = server.takeRequest();
            assertEquals("POST /v1/chat/completions?x=1 HTTP/1.1", r.getRequestLine());
            assertEquals(server.getHostName() + ":" + server.getPort(), r.getHeader("Host"));
            assertEquals("Bearer sk-test-0123456789", r.getHeader("Authorization"));
            assertEquals("application/json; charset=utf-8", r.getHeader("Content-Type"));
            assertEquals("{\"q\": \"héllo\"}", r.getBody().readUtf8(), "the same bytes OkHttp sends");
            assertEquals(i, r.getSequenceNumber(), "the i-th request on one kept-alive connection");
        }
    }

    @Test void readsChunkedRepliesAndSkipsInterimOnes() {
        server.enqueue(new MockResponse().setChunkedBody(OK, 7).setHeader("Content-Type", "application/json").addInformationalResponse(new MockResponse().setResponseCode(100)));
        assertEquals("hi", post(server.url("/v1").toString()).at("/choices/0/message/content").asText());
    }

    @Test void readsARepliesBodyUntilCloseAndAnHttp10Reply() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket ss = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < 2; i++) {
                    try (Socket s = ss.accept()) {
                        connections.incrementAndGet();
                        readRequest(s.getInputStream());
                        OutputStream out = s.getOutputStream();
                        out.write(("HTTP/1." + i + " 200 OK\r\nContent-Type: application/json\r\nX-Odd: caf\u00e9\r\n\r\n" + OK).getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            t.start();
            String url = "http://127.0.0.1:" + ss.getLocalPort() + "/v1";
            assertEquals("hi", post(url).at("/choices/0/message/content").asText());
            assertEquals("hi", post(url).at("/choices/0/message/content").asText(), "a body read to the end is not kept alive");
            t.join(5000);
            assertEquals(2, connections.get());
        }
    }

    @Test void aCutOffBodyIsRetriedAndThenReportedAsOneLine() {
        for (int i = 0; i < 2; i++) {
            server.enqueue(new MockResponse().setBody(OK).setHeader("Content-Length", "500")
                    .setSocketPolicy(okhttp3.mockwebserver.SocketPolicy.DISCONNECT_AT_END));
        }
        BackendException e = assertThrows(BackendException.class, () -> post(server.url("/v1").toString()));
        assertEquals(2, server.getRequestCount(), "retried once, as a truncated body over OkHttp is");
        assertTrue(e.getMessage().startsWith("openai_compatible: request failed: EOFException"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test void keepsAtMostFiveIdleSocketsPerAddressAndClosesLongIdleOnes() throws Exception {
        for (int i = 0; i < 8; i++) server.enqueue(new MockResponse().setBody(OK).setHeadersDelay(300, java.util.concurrent.TimeUnit.MILLISECONDS));
        String url = server.url("/v1").toString();
        List<Thread> calls = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger();
        for (int i = 0; i < 8; i++) calls.add(new Thread(() -> { if (post(url).has("choices")) ok.incrementAndGet(); }));
        calls.forEach(Thread::start);
        for (Thread t : calls) t.join(10_000);
        assertEquals(8, ok.get(), "eight calls at once, eight sockets");
        assertEquals(5, PlainConnection.idleCount(server.getHostName(), server.getPort()), "OkHttp's pool size: five kept");
        PlainConnection.sweep(System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(6));
        assertEquals(0, PlainConnection.idleCount(server.getHostName(), server.getPort()), "idle past five minutes: closed");
    }

    @Test void aServerRestartedOnTheSamePortCostsOneStaleRetryNotOnePerPooledSocket() throws Exception {
        List<Socket> accepted = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ServerSocket first = new ServerSocket();
        first.setReuseAddress(true);
        first.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        int port = first.getLocalPort();
        Thread acceptor = new Thread(() -> {
            while (true) {
                try {
                    Socket s = first.accept();
                    accepted.add(s);
                    new Thread(() -> serveKeptAlive(s, 300)).start();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        acceptor.start();
        String url = "http://127.0.0.1:" + port + "/v1";
        List<Thread> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) calls.add(new Thread(() -> post(url)));
        calls.forEach(Thread::start);
        for (Thread t : calls) t.join(10_000);
        assertEquals(5, PlainConnection.idleCount("127.0.0.1", port), "eight calls at once, five sockets kept");
        first.close(); // the server goes away, resetting its connections: the five pooled sockets are dead
        for (Socket s : accepted) { s.setSoLinger(true, 0); s.close(); }
        acceptor.join(5000);
        try (ServerSocket again = new ServerSocket()) { // and a new one takes the port (a simulator started again)
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            Thread t = new Thread(() -> {
                try { serveKeptAlive(again.accept(), 0); } catch (IOException e) { /* the assertions say what went wrong */ }
            });
            t.setDaemon(true);
            t.start();
            Http.Policy once = new Http.Policy("openai_compatible", 1, Backoff.NONE, Duration.ofSeconds(5));
            JsonNode r = HttpCall.postJson(client, url, Map.of(), Map.of("q", 1), once);
            assertEquals("hi", r.at("/choices/0/message/content").asText(), "more dead sockets than stale retries, one call, no error");
            assertEquals(1, PlainConnection.idleCount("127.0.0.1", port), "the dead ones were closed with the first");
            PlainHttp.evictAll();
        }
    }

    /** Answers each request on {@code s} with {@link #OK}, kept alive, after {@code delayMs}, until the socket closes. */
    private static void serveKeptAlive(Socket s, long delayMs) {
        try (s) {
            while (true) {
                readRequest(s.getInputStream());
                Thread.sleep(delayMs);
                s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + OK.length() + "\r\n\r\n" + OK).getBytes(StandardCharsets.US_ASCII));
            }
        } catch (IOException | InterruptedException | RuntimeException closed) {
            // the client or the test closed it
        }
    }

    @Test void aServerThatStopsReadingALargeRequestTimesOutTheWrite() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = ss.accept()) {
                    Thread.sleep(10_000); // accepts, never reads
                } catch (Exception e) {
                    // closed by the test
                }
            });
            t.setDaemon(true);
            t.start();
            Http.Policy quick = new Http.Policy("openai_compatible", 1, Backoff.NONE, Duration.ofMillis(300));
            String big = "x".repeat(32 * 1024 * 1024);
            long t0 = System.nanoTime();
            BackendException e = assertThrows(BackendException.class, () -> HttpCall.postJson(client,
                    "http://127.0.0.1:" + ss.getLocalPort() + "/v1/chat/completions", Map.of(), Map.of("q", big), quick));
            assertTrue(e.getMessage().contains("timed out") && e.getMessage().contains("write"), e.getMessage());
            assertTrue(System.nanoTime() - t0 < 8_000_000_000L, "ended by the write timeout, not the server");
            // a request under the guard's size fits the socket's buffer: the read timeout ends it
            String small = "y".repeat(PlainConnection.UNGUARDED - 1024);
            BackendException r = assertThrows(BackendException.class, () -> HttpCall.postJson(client,
                    "http://127.0.0.1:" + ss.getLocalPort() + "/v1/chat/completions", Map.of(), Map.of("q", small), quick));
            assertTrue(r.getMessage().contains("timed out"), r.getMessage());
        }
    }

    @Test void httpsAProxyOrThePropertyKeepOkHttp() {
        HttpUrl plain = HttpUrl.get("http://127.0.0.1:9/v1");
        assertTrue(PlainHttp.eligible(client, plain));
        assertFalse(PlainHttp.eligible(client, HttpUrl.get("https://127.0.0.1:9/v1")));
        ProxySelector viaProxy = new ProxySelector() {
            @Override public List<Proxy> select(URI uri) { return List.of(new Proxy(Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", 3128))); }
            @Override public void connectFailed(URI uri, SocketAddress sa, IOException ioe) { }
        };
        OkHttpClient proxied = client.newBuilder().proxySelector(viaProxy).build();
        assertFalse(PlainHttp.eligible(proxied, HttpUrl.get("http://10.9.8.7:9/v1")), "a proxy for that host: OkHttp, which speaks to it");
        assertFalse(PlainHttp.eligible(client.newBuilder().proxy(Proxy.NO_PROXY).build(), plain), "an explicit proxy setting: OkHttp");
        System.setProperty(PlainHttp.PROPERTY, "false");
        try {
            assertFalse(PlainHttp.eligible(client, plain));
        } finally {
            System.clearProperty(PlainHttp.PROPERTY);
        }
    }

    static void readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) return;
            head.append((char) c);
        }
        int at = head.toString().toLowerCase().indexOf("content-length:");
        int n = Integer.parseInt(head.substring(at + 15, head.indexOf("\r\n", at)).trim());
        in.readNBytes(n);
    }
}
