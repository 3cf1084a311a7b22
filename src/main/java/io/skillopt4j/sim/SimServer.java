package io.skillopt4j.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Thread-safe. An OpenAI chat-completions compatible HTTP server on loopback whose "model" is the
 * deterministic {@link SimModel}: {@code POST /v1/chat/completions} and {@code GET /v1/models}, with
 * seeded latency and fault injection. Replies depend only on the seed and the request content, so the same
 * seed gives the same run at any concurrency. Close it to stop (held "timeout" connections are released).
 *
 * <pre>{@code
 * try (SimServer sim = SimServer.builder().seed(7).latency(Latency.parse("20-40")).start()) {
 *     String base = sim.url();   // http://127.0.0.1:PORT/v1 — use as OPENAI_COMPATIBLE_BASE_URL
 * }
 * }</pre>
 */
public final class SimServer implements AutoCloseable {
    static {
        // Without TCP_NODELAY the JDK server's separate header and body writes meet delayed ACKs: +40 ms a call.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final SimModel model;
    private final Latency latency;
    private final Faults faults;
    private final String modelName;
    private final HttpServer http;
    private final ExecutorService pool;
    private final Map<Long, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> byStage = new ConcurrentHashMap<>();
    private final Map<Faults.Kind, LongAdder> byFault = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder handlerNanos = new LongAdder();

    private SimServer(Builder b) {
        this.model = SimModel.of(b.seed, b.behaviour);
        this.latency = b.latency;
        this.faults = b.faults;
        this.modelName = b.modelName;
        try {
            this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port), 256);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + b.port + ": " + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(b.threads, b.threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "skillopt-sim-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        http.setExecutor(pool);
        http.createContext("/", this::handle);
        http.start();
    }

    public static Builder builder() { return new Builder(); }

    /** Returns the base URL clients use, e.g. {@code http://127.0.0.1:41234/v1}. */
    public String url() { return "http://127.0.0.1:" + port() + "/v1"; }

    public int port() { return http.getAddress().getPort(); }

    public SimModel model() { return model; }

    public Latency latency() { return latency; }

    public Faults faults() { return faults; }

    /** Returns the number of chat-completion attempts received so far. */
    public long requests() { return requests.sum(); }

    /** Returns the total time spent computing replies (excluding simulated latency and faults), in nanoseconds. */
    public long handlerNanos() { return handlerNanos.sum(); }

    /** Returns how many attempts each stage received (analyst_error, merge, target, ...). */
    public Map<String, Long> requestsByStage() {
        Map<String, Long> m = new java.util.TreeMap<>();
        byStage.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /** Returns how many faults of each kind were injected. */
    public Map<Faults.Kind, Long> faultsInjected() {
        Map<Faults.Kind, Long> m = new java.util.EnumMap<>(Faults.Kind.class);
        byFault.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    @Override public void close() {
        http.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath().replaceAll("/+$", "");
            if (ex.getRequestMethod().equals("GET") && path.endsWith("/models")) {
                send(ex, 200, SimProtocol.models(modelName), Map.of());
                return;
            }
            if (!ex.getRequestMethod().equals("POST") || !path.endsWith("/chat/completions")) {
                send(ex, 404, SimProtocol.error("no route for " + ex.getRequestMethod() + " " + path, "not_found"), Map.of());
                return;
            }
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.increment();
            SimProtocol.Parsed req;
            try {
                req = SimProtocol.parse(body);
            } catch (IllegalArgumentException e) {
                send(ex, 400, SimProtocol.error(e.getMessage(), "invalid_request_error"), Map.of());
                return;
            }
            int attempt = attempts.computeIfAbsent(SimText.hash(body), k -> new AtomicInteger()).getAndIncrement();
            Faults.Kind fault = faults.any() ? faults.pick(SimText.rng(model.seed(), "fault#" + attempt, body).nextDouble()) : Faults.Kind.NONE;
            if (fault != Faults.Kind.NONE) byFault.computeIfAbsent(fault, k -> new LongAdder()).increment();
            String stage = model.stage(req.system(), req.user());
            byStage.computeIfAbsent(stage, k -> new LongAdder()).increment();
            if (fault == Faults.Kind.RATE_LIMIT) {
                send(ex, 429, SimProtocol.error("Rate limit reached (simulated).", "rate_limit_exceeded"),
                        Map.of("Retry-After", String.valueOf(faults.retryAfterSeconds())));
                return;
            }
            if (fault == Faults.Kind.TIMEOUT) {
                sleep(faults.timeoutHold().toMillis());
                return; // closing the exchange without a response drops the connection
            }
            sleep(latency.sampleMillis(SimText.rng(model.seed(), "latency#" + attempt, body)));
            if (fault == Faults.Kind.SERVER_ERROR) {
                send(ex, 500, SimProtocol.error("The server had an error while processing your request (simulated).", "server_error"), Map.of());
                return;
            }
            long t0 = System.nanoTime();
            String reply = model.reply(req.system(), req.user());
            String json = SimProtocol.completion(req, reply, modelName, SimText.hash(model.seed() + "\u0000" + body));
            handlerNanos.add(System.nanoTime() - t0);
            if (fault == Faults.Kind.MALFORMED) {
                send(ex, 200, json.substring(0, json.length() / 2) + "<html>upstream glitch</html>", Map.of());
            } else if (fault == Faults.Kind.TRUNCATED) {
                byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(200, bytes.length);
                OutputStream os = ex.getResponseBody();
                os.write(bytes, 0, bytes.length / 2);
                os.flush();
                throw new Truncated(); // escapes the handler: the server drops the connection mid-body
            } else {
                send(ex, 200, json, Map.of());
            }
        } catch (Truncated t) {
            throw t;
        } catch (IOException | RuntimeException e) {
            // the client went away (e.g. it timed out) — nothing to answer
        }
    }

    /** Thrown out of the handler so the JDK server closes the connection after a partial body. */
    private static final class Truncated extends RuntimeException {
        Truncated() { super("simulated truncated body", null, false, false); }
    }

    private static void sleep(long ms) {
        if (ms <= 0) return;
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange ex, int status, String body, Map<String, String> headers) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = ex.getResponseBody()) { os.write(bytes); }
    }

    /** Not thread-safe; use once. Defaults: seed 7, default behaviour, no latency, no faults, ephemeral port, 64 threads. */
    public static final class Builder {
        private long seed = 7;
        private SimBehaviour behaviour = SimBehaviour.defaults();
        private Latency latency = Latency.NONE;
        private Faults faults = Faults.none();
        private int port = 0;
        private int threads = 64;
        private String modelName = "skillopt-sim";

        public Builder seed(long s) { this.seed = s; return this; }
        public Builder behaviour(SimBehaviour b) { this.behaviour = Objects.requireNonNull(b, "behaviour"); return this; }
        public Builder latency(Latency l) { this.latency = Objects.requireNonNull(l, "latency"); return this; }
        public Builder latency(Duration fixed) { return latency(new Latency.Fixed(fixed.toMillis())); }
        public Builder faults(Faults f) { this.faults = Objects.requireNonNull(f, "faults"); return this; }
        /** Port to listen on; 0 picks a free one. */
        public Builder port(int p) {
            if (p < 0 || p > 65535) throw new IllegalArgumentException("port must be in 0..65535: " + p);
            this.port = p; return this;
        }
        /** Request-handling threads (concurrent calls served without queueing). */
        public Builder threads(int n) {
            if (n < 1) throw new IllegalArgumentException("threads must be >= 1: " + n);
            this.threads = n; return this;
        }
        public Builder modelName(String m) { this.modelName = Objects.requireNonNull(m, "modelName"); return this; }

        /** Starts listening and returns the running server. */
        public SimServer start() { return new SimServer(this); }
    }
}
