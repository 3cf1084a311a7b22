package io.skillopt4j.sim;

import java.io.IOException;
import java.util.Map;

/** A running simulator HTTP server: ours ({@link SimHttp}), or the JDK's for comparison ({@link JdkSimHttp}). */
interface SimHttpServer extends AutoCloseable {
    int port();

    /** Waits up to {@code ms} or until the server closes; returns the nanoseconds actually waited. */
    long pause(long ms);

    /** Waits up to {@code ms} or until {@code closing} opens; returns the nanoseconds actually waited. */
    static long pause(java.util.concurrent.CountDownLatch closing, long ms) {
        if (ms <= 0) return 0;
        long t0 = System.nanoTime();
        try {
            closing.await(ms, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return System.nanoTime() - t0;
    }

    /** Stops accepting, drops every open connection (also held ones). */
    @Override void close();

    /** Answers one parsed request; must call exactly one of respond / respondTruncated / drop. */
    interface Handler { void handle(Exchange ex) throws IOException; }

    /** One request as the handler sees it. */
    interface Exchange {
        /** {@link System#nanoTime()} when the request's headers had been read. */
        long startNanos();
        String method();
        String path();
        String body();
        /** Sends a complete JSON response. */
        void respond(int status, String json, Map<String, String> headers) throws IOException;
        /** Announces all of {@code json} but sends only its first half; the connection is then dropped. */
        void respondTruncated(int status, String json) throws IOException;
        /** Closes the connection without any response. */
        void drop();
    }

    /**
     * Starts this server, or the JDK's {@code com.sun.net.httpserver} when {@code -Dskillopt.sim.http=jdk} (only to
     * re-measure the two on the bench; see docs/simulator.md, "HTTP layer").
     */
    static SimHttpServer start(int port, int maxConcurrent, Handler handler) throws IOException {
        return "jdk".equals(System.getProperty("skillopt.sim.http")) ? new JdkSimHttp(port, maxConcurrent, handler)
                : new SimHttp(port, maxConcurrent, handler);
    }
}
