package io.skillopt4j.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread-safe. The JDK's {@code com.sun.net.httpserver} behind the simulator, with {@code TCP_NODELAY}
 * ({@code -Dsun.net.httpserver.nodelay=true}, set here unless given) and its own cached executor: kept only so the
 * bench can re-measure it against {@link SimHttp} ({@code -Dskillopt.sim.http=jdk}). Faults degrade here: a
 * truncated reply closes the exchange short of its announced length, a dropped one closes it unanswered, and
 * malformed HTTP gets the JDK's own error reply rather than our JSON one.
 */
final class JdkSimHttp implements SimHttpServer {
    private final HttpServer server;
    private final ExecutorService pool;
    private final CountDownLatch closing = new CountDownLatch(1);

    JdkSimHttp(int port, int maxConcurrent, SimHttpServer.Handler handler) throws IOException {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "skillopt-sim-jdk-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Semaphore slots = new Semaphore(maxConcurrent);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        server.setExecutor(pool);
        server.createContext("/", hx -> {
            long start = System.nanoTime();
            Ex ex = new Ex(hx, start, hx.getRequestBody().readAllBytes());
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

    @Override public int port() { return server.getAddress().getPort(); }

    @Override public long pause(long ms) { return SimHttpServer.pause(closing, ms); }

    /** Returns once every handler has finished (bounded by 2 s), so {@link SimServer#serverNanos()} is final. */
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

    /** Not thread-safe; one request on an executor thread. */
    private static final class Ex implements SimHttpServer.Exchange {
        private final HttpExchange hx;
        private final long startNanos;
        private final byte[] body;
        boolean answered;

        Ex(HttpExchange hx, long startNanos, byte[] body) { this.hx = hx; this.startNanos = startNanos; this.body = body; }

        @Override public long startNanos() { return startNanos; }
        @Override public String method() { return hx.getRequestMethod(); }
        @Override public String path() { return hx.getRequestURI().getPath(); }
        @Override public String body() { return new String(body, StandardCharsets.UTF_8); }

        @Override public void respond(int status, String json, Map<String, String> headers) throws IOException {
            answered = true;
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            hx.getResponseHeaders().set("Content-Type", "application/json");
            headers.forEach((k, v) -> hx.getResponseHeaders().set(k, v));
            boolean head = method().equals("HEAD");
            hx.sendResponseHeaders(status, head ? -1 : b.length);
            if (!head) hx.getResponseBody().write(b);
        }

        @Override public void respondTruncated(int status, String json) throws IOException {
            answered = true;
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            hx.sendResponseHeaders(status, b.length);
            hx.getResponseBody().write(b, 0, b.length / 2);
        }

        @Override public void drop() { answered = true; }
    }
}
