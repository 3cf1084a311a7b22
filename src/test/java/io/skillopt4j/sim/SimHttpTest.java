package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

/** The simulator's HTTP/1.1 layer as a hand-written client on a raw socket sees it. */
class SimHttpTest {
    record Resp(int status, Map<String, String> headers, String body) {}

    /** A raw HTTP/1.1 client on one connection. */
    static final class Raw implements AutoCloseable {
        final Socket socket;
        final InputStream in;
        final OutputStream out;

        Raw(SimServer s) throws IOException {
            socket = new Socket("127.0.0.1", s.port());
            socket.setSoTimeout(10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) throw new IOException("end of stream inside a line");
                if (c != '\r') b.write(c);
            }
            return b.toString(StandardCharsets.ISO_8859_1);
        }

        Resp head() throws IOException {
            String status = line();
            assertTrue(status.startsWith("HTTP/1.1 "), status);
            Map<String, String> h = new TreeMap<>();
            for (String l; !(l = line()).isEmpty(); ) h.put(l.substring(0, l.indexOf(':')).toLowerCase(Locale.ROOT), l.substring(l.indexOf(':') + 1).trim());
            return new Resp(Integer.parseInt(status.substring(9, 12)), h, "");
        }

        Resp read() throws IOException {
            Resp r = head();
            byte[] body = in.readNBytes(Integer.parseInt(r.headers().get("content-length")));
            return new Resp(r.status(), r.headers(), new String(body, StandardCharsets.UTF_8));
        }

        /** True when the server has closed the connection (end of stream or reset). */
        boolean closedByServer() throws IOException {
            try {
                return in.read() < 0;
            } catch (SocketException reset) {
                return true;
            }
        }

        @Override public void close() throws IOException { socket.close(); }
    }

    static String post(String body, String... extraHeaders) {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + String.join("", extraHeaders) + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    static String content(Resp r) {
        @SuppressWarnings("unchecked") Map<String, Object> choice = ((java.util.List<Map<String, Object>>) Json.parseObject(r.body()).get("choices")).get(0);
        return (String) ((Map<?, ?>) choice.get("message")).get("content");
    }

    @Test void keepAliveServesSeveralRequestsOnOneConnectionIncludingPipelinedOnes() throws Exception {
        try (SimServer s = SimServer.builder().seed(3).start(); Raw c = new Raw(s)) {
            c.send(post(SimServerTest.body("sys", "first question")));
            Resp a = c.read();
            assertEquals(200, a.status());
            assertNull(a.headers().get("connection"));
            c.send("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
            Resp models = c.read();
            assertEquals(200, models.status());
            assertTrue(models.body().contains("\"skillopt-sim\""), models.body());
            c.send(post(SimServerTest.body("sys", "second question")) + post(SimServerTest.body("sys", "third question")));
            assertEquals(200, c.read().status());
            assertEquals(200, c.read().status());
            c.send("POST /v1/nowhere?x=1 HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
            Resp none = c.read();
            assertEquals(404, none.status());
            assertTrue(none.body().contains("not_found"), none.body());
            c.send(post(SimServerTest.body("sys", "fourth question")));
            assertEquals(200, c.read().status());
            assertEquals(4, s.requests());
        }
    }

    @Test void chunkedRequestBodyGivesTheSameReplyAsContentLength() throws Exception {
        String body = SimServerTest.body("sys", "a question sent in pieces");
        try (SimServer s = SimServer.builder().seed(3).start(); Raw c = new Raw(s)) {
            c.send(post(body));
            String plain = c.read().body();
            c.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n");
            assertEquals(100, c.head().status());
            int cut = body.length() / 3;
            c.send(Integer.toHexString(cut) + "\r\n" + body.substring(0, cut) + "\r\n"
                    + Integer.toHexString(body.length() - cut) + "\r\n" + body.substring(cut) + "\r\n0\r\n\r\n");
            Resp r = c.read();
            assertEquals(200, r.status());
            assertEquals(plain, r.body());
            assertEquals(2, s.requests());
            c.send("POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
            assertTrue(c.closedByServer(), "a malformed chunk closes the connection");
        }
    }

    @Test void connectionCloseClosesTheConnectionAfterTheResponse() throws Exception {
        try (SimServer s = SimServer.builder().start(); Raw c = new Raw(s)) {
            c.send(post(SimServerTest.body("sys", "q"), "Connection: close\r\n"));
            assertEquals(200, c.read().status());
            assertTrue(c.closedByServer());
        }
    }

    @Test void malformedHttpIsRefusedWhileTheServerKeepsServing() throws Exception {
        try (SimServer s = SimServer.builder().start()) {
            try (Raw c = new Raw(s)) {
                c.send("GARBAGE\r\n\r\n");
                Resp r = c.read();
                assertEquals(400, r.status());
                assertTrue(c.closedByServer());
            }
            try (Raw c = new Raw(s)) {
                c.send(post(SimServerTest.body("sys", "still serving")));
                assertEquals(200, c.read().status());
            }
            assertEquals(1, s.requests());
        }
    }

    @Test void closeFaultMakesTheConnectionStaleForItsNextRequestOnly() throws Exception {
        try (SimServer s = SimServer.builder().faults(Faults.none().withCloses(1.0)).start()) {
            try (Raw c = new Raw(s)) {
                c.send(post(SimServerTest.body("sys", "q")));
                assertEquals(200, c.read().status());
                c.send(post(SimServerTest.body("sys", "q2")));
                assertTrue(c.closedByServer(), "the request after a close fault gets no response");
            }
            assertEquals(1, s.requests(), "the stale connection's request never reaches the simulator");
            assertEquals(1L, s.faultsInjected().get(Faults.Kind.CLOSE));
        }
    }

    @Test void truncatedFaultAnnouncesTheFullLengthSendsHalfAndDrops() throws Exception {
        try (SimServer s = SimServer.builder().faults(Faults.none().withTruncated(1.0)).start(); Raw c = new Raw(s)) {
            c.send(post(SimServerTest.body("sys", "q")));
            Resp r = c.head();
            assertEquals(200, r.status());
            int announced = Integer.parseInt(r.headers().get("content-length"));
            byte[] got = c.in.readAllBytes();
            assertEquals(announced / 2, got.length);
        }
    }

    @Test void closeReleasesAConnectionHeldByATimeoutFault() throws Exception {
        SimServer s = SimServer.builder().faults(Faults.none().withTimeouts(1.0, Duration.ofMinutes(5))).start();
        try (Raw c = new Raw(s)) {
            c.send(post(SimServerTest.body("sys", "q")));
            while (s.faultsInjected().getOrDefault(Faults.Kind.TIMEOUT, 0L) == 0) Thread.sleep(5);
            assertTimeoutPreemptively(Duration.ofSeconds(10), s::close);
            assertTrue(c.closedByServer(), "held connection is dropped without a response");
            assertThrows(IOException.class, () -> { try (Socket again = new Socket("127.0.0.1", s.port())) { again.getOutputStream().write(1); } });
        } finally {
            s.close();
        }
    }

    @Test void serverNanosCoversTheServerSpanButNotTheInjectedLatency() throws Exception {
        SimServer fast = SimServer.builder().start();
        try (fast; Raw c = new Raw(fast)) {
            for (int i = 0; i < 3; i++) {
                c.send(post(SimServerTest.body("sys", "q" + i)));
                assertEquals(200, c.read().status());
            }
        } // counters are final once close() has returned
        assertTrue(fast.serverNanos() >= fast.handlerNanos() && fast.handlerNanos() > 0, fast.serverNanos() + " vs " + fast.handlerNanos());
        SimServer slow = SimServer.builder().latency(new Latency.Fixed(100)).start();
        long t0;
        try (slow; Raw c = new Raw(slow)) {
            t0 = System.nanoTime();
            c.send(post(SimServerTest.body("sys", "slow")));
            assertEquals(200, c.read().status());
        }
        // read the clock only after close(): the server adds a call's span just after its flush, which may come
        // after the client has read the reply (a loaded machine can delay it by far more than microseconds)
        long client = System.nanoTime() - t0;
        // the server's span lies inside [send, close] and leaves out at least the 100 ms of injected latency
        assertTrue(slow.serverNanos() > 0 && slow.serverNanos() + 100_000_000L <= client, slow.serverNanos() + " + 100 ms vs " + client);
    }
}
