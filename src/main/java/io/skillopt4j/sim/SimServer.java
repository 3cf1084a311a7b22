package io.skillopt4j.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Thread-safe. An OpenAI chat-completions compatible HTTP server on loopback whose "model" is the
 * deterministic {@link SimModel}: {@code POST /v1/chat/completions} and {@code GET /v1/models}, with
 * seeded latency and fault injection. Replies depend only on the seed and the request content, so the same
 * seed gives the same run at any concurrency. Close it to stop (held "timeout" connections are released).
 * HTTP is served by the JDK's {@code HttpServer} ({@link JdkSimHttp}: keep-alive, TCP_NODELAY).
 *
 * <pre>{@code
 * try (SimServer sim = SimServer.builder().seed(7).latency(Latency.parse("20-40")).start()) {
 *     String base = sim.url();   // http://127.0.0.1:PORT/v1 — use as OPENAI_COMPATIBLE_BASE_URL
 * }
 * }</pre>
 */
public final class SimServer implements AutoCloseable {
    private final SimModel model;
    private final Latency latency;
    private final Faults faults;
    private final String modelName;
    private final JdkSimHttp http;
    private final SimBatches batches;
    private final Map<Long, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> byStage = new ConcurrentHashMap<>();
    private final Map<Faults.Kind, LongAdder> byFault = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final java.util.Set<String> promptCache = ConcurrentHashMap.newKeySet();
    private final LongAdder handlerNanos = new LongAdder();
    private final LongAdder serverNanos = new LongAdder();
    private final java.util.Queue<Call> calls; // null unless the builder asked for a call log

    /** Immutable. One chat-completion request as the server saw it: stage, arrival and reply (epoch seconds). */
    public record Call(String stage, double start, double end) {}

    private SimServer(Builder b) {
        this.model = SimModel.of(b.seed, b.behaviour, b.noise);
        this.latency = b.latency;
        this.faults = b.faults;
        this.modelName = b.modelName;
        this.batches = new SimBatches(this::batchCompletion, this::message, b.batchDelay, () -> "http://127.0.0.1:" + port());
        this.calls = b.logCalls ? new java.util.concurrent.ConcurrentLinkedQueue<>() : null;
        try {
            this.http = new JdkSimHttp(b.port, b.threads, this::handle);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + b.port + ": " + e.getMessage(), e);
        }
    }

    public static Builder builder() { return new Builder(); }

    /** Returns the base URL clients use, e.g. {@code http://127.0.0.1:41234/v1}. */
    public String url() { return "http://127.0.0.1:" + port() + "/v1"; }

    public int port() { return http.port(); }

    /**
     * Returns the only environment a run on the simulator gets: the openai_compatible base URL and a dummy key.
     * Nothing else, so user-level {@code OPENAI_COMPATIBLE_*} settings (or a real key) never leak into it.
     */
    public Map<String, String> environment() { return environment(url()); }

    /**
     * The environment of a run on any OpenAI-compatible simulator at {@code baseUrl} (ours in another JVM, the
     * shared fake LLM): the base URL and a dummy key, nothing else. The one place these names are spelled for it.
     */
    public static Map<String, String> environment(String baseUrl) {
        return Map.of("OPENAI_COMPATIBLE_BASE_URL", baseUrl, "OPENAI_COMPATIBLE_API_KEY", "sk-simulator");
    }

    public SimModel model() { return model; }

    public Latency latency() { return latency; }

    public Faults faults() { return faults; }

    /** Returns the number of chat-completion attempts received so far. */
    public long requests() { return requests.sum(); }

    /**
     * Returns the total time spent computing replies, in nanoseconds: the model's answer and its JSON
     * serialisation only (no HTTP, no simulated latency or faults), summed over successful completions.
     */
    public long handlerNanos() { return handlerNanos.sum(); }

    /**
     * Returns the simulator's own total cost of serving chat-completion attempts, in nanoseconds: for each attempt
     * counted by {@link #requests()}, from the moment the request had been read to the moment its response was
     * flushed (or its connection dropped), minus the injected latency and timeout holds. It covers JSON parsing, the model, serialisation, writing and any wait for a free handler slot
     * ({@link Builder#threads}); {@code serverNanos() / requests()} is the mean per call. A call's time is added
     * just after its response is flushed, so it can lag the client; it is final once {@link #close()}
     * has returned.
     */
    public long serverNanos() { return serverNanos.sum(); }

    /** Returns how many attempts each stage received (analyst_error, merge, target, ...). */
    /** Returns the logged calls so far (empty unless built with {@link Builder#logCalls()}), in completion order. */
    public List<Call> calls() { return calls == null ? List.of() : List.copyOf(calls); }

    /** Returns request counts by stage. */
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

    /** Stops accepting, drops open and held connections and returns (within about a second at most). */
    @Override public void close() { http.close(); }

    /** Returns e.g. {@code SimServer http://127.0.0.1:41234/v1 · model skillopt-sim · seed 7 · latency 0ms · 12 requests}. */
    @Override public String toString() {
        return "SimServer " + url() + " · model " + modelName + " · seed " + model.seed() + " · latency " + latency
                + (faults.any() ? " · faults " + faults : "") + " · " + requests() + " requests";
    }

    private void handle(JdkSimHttp.Exchange ex) throws IOException {
        String path = ex.path();
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') end--;
        path = path.substring(0, end);
        if (ex.method().equals("GET") && path.endsWith("/models")) {
            ex.respond(200, SimProtocol.models(modelName), Map.of());
            return;
        }
        if (SimBatches.routes(path)) {
            batches.handle(ex, path);
            return;
        }
        if (ex.method().equals("POST") && path.endsWith("/messages")) {
            // the same simulated latency as a chat completion (no faults: those are the OpenAI route's)
            http.pause(latency instanceof Latency.Fixed f ? f.millis() : latency.sampleMillis(SimText.rng(model.seed(), "latency#messages", ex.body())));
            ex.respond(200, io.skillopt4j.internal.Json.compact(message(io.skillopt4j.internal.Json.parseObject(ex.body()))), Map.of());
            return;
        }
        if (!ex.method().equals("POST") || !path.endsWith("/chat/completions")) {
            ex.respond(404, SimProtocol.error("no route for " + ex.method() + " " + path, "not_found"), Map.of());
            return;
        }
        requests.increment();
        long[] injected = {0};
        try {
            complete(ex, injected);
        } finally {
            serverNanos.add(System.nanoTime() - ex.startNanos() - injected[0]);
        }
    }

    /** One chat-completion attempt; adds the nanoseconds spent in injected delays to {@code injected[0]}. */
    private void complete(JdkSimHttp.Exchange ex, long[] injected) throws IOException {
        String body = ex.body();
        SimProtocol.Parsed req;
        try {
            req = SimProtocol.parse(body);
        } catch (IllegalArgumentException e) {
            ex.respond(400, SimProtocol.error(e.getMessage(), "invalid_request_error"), Map.of());
            return;
        }
        int attempt = attempts.computeIfAbsent(SimText.hash(body), k -> new AtomicInteger()).getAndIncrement();
        Faults.Kind fault = faults.any() ? faults.pick(SimText.rng(model.seed(), "fault#" + attempt, body).nextDouble()) : Faults.Kind.NONE;
        if (fault != Faults.Kind.NONE) byFault.computeIfAbsent(fault, k -> new LongAdder()).increment();
        String stage = model.stage(req.system(), req.user());
        byStage.computeIfAbsent(stage, k -> new LongAdder()).increment();

        if (fault == Faults.Kind.RATE_LIMIT) {
            ex.respond(429, SimProtocol.error("Rate limit reached (simulated).", "rate_limit_exceeded"),
                    Map.of("Retry-After", String.valueOf(faults.retryAfterSeconds())));
            return;
        }
        if (fault == Faults.Kind.DISCONNECT) {
            ex.drop(); // request read, connection closed, no response: the client sees "unexpected end of stream"
            return;
        }
        if (fault == Faults.Kind.TIMEOUT) {
            injected[0] += http.pause(faults.timeoutHold().toMillis()); // returns early when the server closes
            ex.drop();
            return;
        }
        long delay = latency instanceof Latency.Fixed f ? f.millis() // a fixed delay needs no seeded draw (a SHA-256 of the body)
                : latency.sampleMillis(SimText.rng(model.seed(), "latency#" + attempt, body));
        injected[0] += http.pause(delay);
        if (fault == Faults.Kind.SERVER_ERROR) {
            ex.respond(500, SimProtocol.error("The server had an error while processing your request (simulated).", "server_error"), Map.of());
            return;
        }
        long t0 = System.nanoTime();
        String reply = model.reply(req.system(), req.user());
        String json = SimProtocol.completion(req, reply, modelName, SimText.hash(model.seed() + "\u0000" + body), cachedPrefix(req));
        handlerNanos.add(System.nanoTime() - t0);
        if (fault == Faults.Kind.MALFORMED) {
            ex.respond(200, json.substring(0, json.length() / 2) + "<html>upstream glitch</html>", Map.of());
        } else if (fault == Faults.Kind.TRUNCATED) {
            ex.respondTruncated(200, json); // full Content-Length announced, half sent, connection dropped
        } else {
            ex.respond(200, json, Map.of());
            // a server that closes after the reply without a Connection: close header: the client's pooled
            // connection is stale and its next request on it gets no response
            if (fault == Faults.Kind.CLOSE) ex.staleAfter();
        }
        if (calls != null) calls.add(new Call(stage, epochSeconds(ex.startNanos()), epochSeconds(System.nanoTime())));
    }

    /** One chat-completions request of a batch, answered as the direct endpoint answers it (no latency or faults). */
    private String batchCompletion(Map<String, Object> body) {
        String json = io.skillopt4j.internal.Json.compact(body);
        SimProtocol.Parsed req = SimProtocol.parse(json);
        byStage.computeIfAbsent(model.stage(req.system(), req.user()), k -> new LongAdder()).increment();
        return SimProtocol.completion(req, model.reply(req.system(), req.user()), modelName, SimText.hash(model.seed() + "\u0000" + json), cachedPrefix(req));
    }

    /** An Anthropic Messages request (direct or in a batch) answered by the simulator's model. */
    private Map<String, Object> message(Map<String, Object> params) {
        SimProtocol.Parsed req = SimProtocol.parseAnthropic(params);
        byStage.computeIfAbsent(model.stage(req.system(), req.user()), k -> new LongAdder()).increment();
        return SimProtocol.message(req, model.reply(req.system(), req.user()), modelName, SimText.hash(model.seed() + "\u0000" + params));
    }

    /** Returns how many requests the simulator answered through its Batch APIs. */
    public long batchedRequests() { return batches.answered(); }

    /**
     * OpenAI's prompt cache as the simulator models it: with a {@code prompt_cache_key}, a system prompt of at
     * least 1024 tokens seen before under that key is served from cache in 128-token increments.
     */
    private int cachedPrefix(SimProtocol.Parsed req) {
        if (req.cacheKey().isEmpty()) return 0;
        int tokens = SimProtocol.tokens(req.system().length());
        if (tokens < 1024) return 0;
        boolean seen = !promptCache.add(req.cacheKey() + "\u0000" + SimText.hash(req.system()));
        return seen ? tokens / 128 * 128 : 0;
    }
    private static final long EPOCH_NANOS = System.currentTimeMillis() * 1_000_000L - System.nanoTime();

    private static double epochSeconds(long nanoTime) { return (nanoTime + EPOCH_NANOS) / 1e9; }

    /** The builder's defaults that the CLI options repeat in their help (constants, so annotations can name them). */
    public static final long DEFAULT_SEED = 7;
    public static final int DEFAULT_THREADS = 64;
    public static final String DEFAULT_MODEL_NAME = "skillopt-sim";

    /** Not thread-safe; use once. Defaults: seed 7, default behaviour, no latency, no faults, ephemeral port, 64 threads. */
    public static final class Builder {
        private long seed = DEFAULT_SEED;
        private SimBehaviour behaviour = SimBehaviour.defaults();
        private TargetNoise noise = TargetNoise.none();
        private Latency latency = Latency.NONE;
        private Faults faults = Faults.none();
        private int port = 0;
        private int threads = DEFAULT_THREADS;
        private String modelName = DEFAULT_MODEL_NAME;
        private Duration batchDelay = Duration.ZERO;

        /** How long a submitted batch stays in progress before it completes (default 0: done at the first poll). */
        public Builder batchDelay(Duration d) {
            if (d.isNegative()) throw new IllegalArgumentException("batchDelay must be >= 0: " + d);
            this.batchDelay = d; return this;
        }
        private boolean logCalls;

        public Builder seed(long s) { this.seed = s; return this; }
        /** The target's answer noise (default none; docs/simulator.md): each answer flipped with {@code p}, drawn from {@code seed}. */
        public Builder noise(double p, long seed) { this.noise = TargetNoise.of(p, seed); return this; }
        public Builder behaviour(SimBehaviour b) { this.behaviour = Objects.requireNonNull(b, "behaviour"); return this; }
        public Builder latency(Latency l) { this.latency = Objects.requireNonNull(l, "latency"); return this; }
        public Builder latency(Duration fixed) { return latency(new Latency.Fixed(fixed.toMillis())); }
        public Builder faults(Faults f) { this.faults = Objects.requireNonNull(f, "faults"); return this; }
        /** Port to listen on; 0 picks a free one. */
        public Builder port(int p) {
            if (p < 0 || p > 65535) throw new IllegalArgumentException("port must be in 0..65535: " + p);
            this.port = p; return this;
        }
        /** Requests handled at once (concurrent calls served without queueing); more wait for a free slot. */
        public Builder threads(int n) {
            if (n < 1) throw new IllegalArgumentException("threads must be >= 1: " + n);
            this.threads = n; return this;
        }
        /** Keeps a {@link Call} per chat request (benchmarks: {@code skillopt bench workload}). */
        public Builder logCalls() { this.logCalls = true; return this; }
        public Builder modelName(String m) { this.modelName = Objects.requireNonNull(m, "modelName"); return this; }

        /** Starts listening and returns the running server. */
        public SimServer start() { return new SimServer(this); }
    }
}
