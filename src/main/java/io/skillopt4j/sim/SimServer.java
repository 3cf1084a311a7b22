package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;

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
 * Thread-safe. An OpenAI chat-completions compatible HTTP server on loopback whose "model" is the deterministic
 * {@link SimModel}, with seeded latency and fault injection. Replies depend only on the seed and the request, so
 * the same seed gives the same run at any concurrency. Close it to stop.
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

    /** E.g. {@code http://127.0.0.1:41234/v1}. */
    public String url() { return "http://127.0.0.1:" + port() + "/v1"; }

    public int port() { return http.port(); }

    /** The only environment a run on the simulator gets, so a user's own settings or real key never leak in. */
    public Map<String, String> environment() { return environment(url()); }

    /** The environment of a run on any OpenAI-compatible simulator at {@code baseUrl}: its URL and a dummy key. */
    public static Map<String, String> environment(String baseUrl) {
        return Map.of("OPENAI_COMPATIBLE_BASE_URL", baseUrl, "OPENAI_COMPATIBLE_API_KEY", "sk-simulator");
    }

    public SimModel model() { return model; }

    public Latency latency() { return latency; }

    public Faults faults() { return faults; }

    /** Chat-completion attempts received so far. */
    public long requests() { return requests.sum(); }

    /** Nanoseconds spent computing successful replies: the model and its JSON only (no HTTP, latency or faults). */
    public long handlerNanos() { return handlerNanos.sum(); }

    /**
     * The simulator's own nanoseconds serving the {@link #requests()}: request read → response flushed (or dropped),
     * minus injected delays; includes waits for a handler slot. It lags the client and is final after {@link #close()}.
     */
    public long serverNanos() { return serverNanos.sum(); }

    /** The logged calls so far (empty unless built with {@link Builder#logCalls()}), in completion order. */
    public List<Call> calls() { return calls == null ? List.of() : List.copyOf(calls); }

    /** Request counts by stage (analyst_error, merge, target, ...). */
    public Map<String, Long> requestsByStage() { return sums(byStage, new java.util.TreeMap<>()); }

    public Map<Faults.Kind, Long> faultsInjected() { return sums(byFault, new java.util.EnumMap<>(Faults.Kind.class)); }

    private static <K> Map<K, Long> sums(Map<K, LongAdder> counts, Map<K, Long> into) {
        counts.forEach((k, v) -> into.put(k, v.sum()));
        return into;
    }

    /** Stops accepting, drops open and held connections and returns (within about a second at most). */
    @Override public void close() { http.close(); }

    @Override public String toString() {
        return "SimServer " + url() + " · model " + modelName + " · seed " + model.seed() + " · latency " + latency
                + (faults.any() ? " · faults " + faults : "") + " · " + requests() + " requests";
    }

    private void handle(JdkSimHttp.Exchange ex) throws IOException {
        String path = ex.path().replaceAll("/+\\z", ""), m = ex.method();
        if (m.equals("GET") && path.endsWith("/models")) {
            ex.respond(200, SimProtocol.models(modelName), Map.of());
        } else if (SimBatches.routes(path)) {
            batches.handle(ex, path);
        } else if (m.equals("POST") && path.endsWith("/messages")) {
            http.pause(delay("latency#messages", ex.body())); // no faults: those are the OpenAI route's
            ex.respond(200, Json.compact(message(Json.parseObject(ex.body()))), Map.of());
        } else if (!m.equals("POST") || !path.endsWith("/chat/completions")) {
            ex.respond(404, SimProtocol.error("no route for " + m + " " + path, "not_found"), Map.of());
        } else {
            requests.increment();
            long[] injected = {0};
            try {
                complete(ex, injected);
            } finally {
                serverNanos.add(System.nanoTime() - ex.startNanos() - injected[0]);
            }
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
        String stage = count(req);

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
        injected[0] += http.pause(delay("latency#" + attempt, body));
        if (fault == Faults.Kind.SERVER_ERROR) {
            ex.respond(500, SimProtocol.error("The server had an error while processing your request (simulated).", "server_error"), Map.of());
            return;
        }
        long t0 = System.nanoTime();
        String reply = model.reply(req.system(), req.user());
        String json = SimProtocol.completion(req, reply, modelName, id(body), cachedPrefix(req));
        handlerNanos.add(System.nanoTime() - t0);
        if (fault == Faults.Kind.MALFORMED) {
            ex.respond(200, json.substring(0, json.length() / 2) + "<html>upstream glitch</html>", Map.of());
        } else if (fault == Faults.Kind.TRUNCATED) {
            ex.respondTruncated(200, json); // full Content-Length announced, half sent, connection dropped
        } else {
            ex.respond(200, json, Map.of());
            // closed after the reply without a Connection: close header, so the client's pooled connection is stale
            if (fault == Faults.Kind.CLOSE) ex.staleAfter();
        }
        if (calls != null) calls.add(new Call(stage, epochSeconds(ex.startNanos()), epochSeconds(System.nanoTime())));
    }

    /** A fixed delay needs no seeded draw (a SHA-256 of the body). */
    private long delay(String purpose, String body) {
        return latency instanceof Latency.Fixed f ? f.millis() : latency.sampleMillis(SimText.rng(model.seed(), purpose, body));
    }

    /** Counts the request under its stage and returns the stage. */
    private String count(SimProtocol.Parsed req) {
        String stage = model.stage(req.system(), req.user());
        byStage.computeIfAbsent(stage, k -> new LongAdder()).increment();
        return stage;
    }

    /** A reply's id: a hash of the seed and the request. */
    private long id(Object request) { return SimText.hash(model.seed() + "\u0000" + request); }

    /** One chat-completions request of a batch, answered as the direct endpoint answers it (no latency or faults). */
    private String batchCompletion(Map<String, Object> body) {
        String json = Json.compact(body);
        SimProtocol.Parsed req = SimProtocol.parse(json);
        count(req);
        return SimProtocol.completion(req, model.reply(req.system(), req.user()), modelName, id(json), cachedPrefix(req));
    }

    /** An Anthropic Messages request (direct or in a batch) answered by the simulator's model. */
    private Map<String, Object> message(Map<String, Object> params) {
        SimProtocol.Parsed req = SimProtocol.parseAnthropic(params);
        count(req);
        return SimProtocol.message(req, model.reply(req.system(), req.user()), modelName, id(params));
    }

    /** OpenAI's prompt cache: a system prompt of 1024+ tokens seen under the same key is cached in 128-token steps. */
    private int cachedPrefix(SimProtocol.Parsed req) {
        if (req.cacheKey().isEmpty()) return 0;
        int tokens = SimProtocol.tokens(req.system().length());
        if (tokens < 1024) return 0;
        boolean seen = !promptCache.add(req.cacheKey() + "\u0000" + SimText.hash(req.system()));
        return seen ? tokens / 128 * 128 : 0;
    }

    private static final long EPOCH_NANOS = System.currentTimeMillis() * 1_000_000L - System.nanoTime();

    private static double epochSeconds(long nanoTime) { return (nanoTime + EPOCH_NANOS) / 1e9; }

    /** Builder defaults the CLI's help repeats (constants, so annotations can name them). */
    public static final long DEFAULT_SEED = 7;
    public static final int DEFAULT_THREADS = 64;
    public static final String DEFAULT_MODEL_NAME = "skillopt-sim";

    /** Not thread-safe; use once. Defaults: seed 7, no latency or faults, a free port, 64 threads. */
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
        private boolean logCalls;

        /** How long a submitted batch stays in progress before it completes (default 0: done at the first poll). */
        public Builder batchDelay(Duration d) {
            if (d.isNegative()) throw new IllegalArgumentException("batchDelay must be >= 0: " + d);
            this.batchDelay = d; return this;
        }

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

        public SimServer start() { return new SimServer(this); }
    }
}
