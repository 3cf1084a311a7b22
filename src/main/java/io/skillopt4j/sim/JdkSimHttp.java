package io.skillopt4j.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe. The simulator's HTTP server: the JDK's {@code HttpServer} on loopback with TCP_NODELAY (so small
 * replies are not held back by Nagle's algorithm) and a cached executor, so a request held by a latency or timeout
 * fault never blocks another. This class adds the request slots and the faults that need the connection.
 */
final class JdkSimHttp implements AutoCloseable {
    /** Answers one request; must call exactly one of respond / respondTruncated / drop. */
    interface Handler { void handle(Exchange ex) throws IOException; }

    private final HttpServer server;
    private final ExecutorService pool;
    private final CountDownLatch closing = new CountDownLatch(1);
    /** Client addresses of connections marked by {@link Exchange#staleAfter()}; one entry per such connection. */
    private final Set<SocketAddress> stale = ConcurrentHashMap.newKeySet();

    JdkSimHttp(int port, int maxConcurrent, Handler handler) throws IOException {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
        // idle keep-alive connections outlive OkHttp's five-minute pool: the client closes them first, so a notebook
        // that pauses between calls does not find its pooled connection closed under it
        if (System.getProperty("sun.net.httpserver.idleInterval") == null) System.setProperty("sun.net.httpserver.idleInterval", "600");
        this.pool = Executors.newCachedThreadPool(io.skillopt4j.internal.Daemons.numbered("skillopt-sim-"));
        Semaphore slots = new Semaphore(maxConcurrent);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        server.setExecutor(pool);
        server.createContext("/", hx -> {
            if (stale.remove(hx.getRemoteAddress())) {
                hx.close(); // nothing sent: the JDK server closes the connection
                return;
            }
            byte[] body;
            try {
                body = hx.getRequestBody().readAllBytes();
            } catch (IOException badBody) { // e.g. a malformed chunk: the rest of the stream cannot be framed
                hx.close(); // nothing sent: the connection is closed
                return;
            }
            Exchange ex = new Exchange(hx, System.nanoTime(), body);
            slots.acquireUninterruptibly();
            try {
                handler.handle(ex);
            } catch (RuntimeException e) {
                if (!ex.answered) ex.respond(500, SimProtocol.error("simulator error: " + e, "server_error"), Map.of());
            } finally {
                slots.release();
                hx.close();
            }
        });
        server.start();
    }

    int port() { return server.getAddress().getPort(); }

    /** Waits up to {@code ms} or until the server closes; returns the nanoseconds actually waited. */
    long pause(long ms) {
        if (ms <= 0) return 0;
        long t0 = System.nanoTime();
        try {
            closing.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return System.nanoTime() - t0;
    }

    /** Drops every connection (timeout holds end first) and returns once handlers finish, bounded: serverNanos is final. */
    @Override public void close() {
        closing.countDown();
        server.stop(0);
        pool.shutdown();
        try {
            if (!pool.awaitTermination(2, TimeUnit.SECONDS)) pool.shutdownNow();
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Not thread-safe. One request as the handler sees it, on an executor thread. */
    final class Exchange {
        private final HttpExchange hx;
        private final long startNanos;
        private final byte[] body;
        private boolean answered;

        private Exchange(HttpExchange hx, long startNanos, byte[] body) {
            this.hx = hx;
            this.startNanos = startNanos;
            this.body = body;
        }

        /** {@link System#nanoTime()} when the request had been read. */
        long startNanos() { return startNanos; }
        String method() { return hx.getRequestMethod(); }
        String path() { return hx.getRequestURI().getPath(); }
        String body() { return new String(body, StandardCharsets.UTF_8); }

        /** Sends a complete JSON response. */
        void respond(int status, String json, Map<String, String> headers) throws IOException {
            answered = true;
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            hx.getResponseHeaders().set("Content-Type", "application/json");
            headers.forEach((k, v) -> hx.getResponseHeaders().set(k, v));
            boolean head = method().equals("HEAD");
            hx.sendResponseHeaders(status, head ? -1 : b.length);
            if (!head) hx.getResponseBody().write(b);
        }

        /** Announces all of {@code json} but sends only its first half; the connection is then dropped. */
        void respondTruncated(int status, String json) throws IOException {
            answered = true;
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            hx.getResponseHeaders().set("Content-Type", "application/json");
            hx.sendResponseHeaders(status, b.length);
            hx.getResponseBody().write(b, 0, b.length / 2);
            hx.getResponseBody().flush();
        }

        /** Closes the connection without any response. */
        void drop() { answered = true; }

        /** After a complete response: the next request on this connection is dropped unread, as after a silent close. */
        void staleAfter() { stale.add(hx.getRemoteAddress()); }
    }
}
