package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.backend.internal.Http;
import io.skillopt4j.backend.internal.HttpErrors;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.JsonReply;
import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Semaphore;

/**
 * Thread-safe. The template every backend follows: {@link #chat(ChatRequest)} merges defaults, consults the
 * {@link ResponseCache}, bounds concurrency, retries, checks required JSON, meters usage and maps stray exceptions to
 * {@link BackendException}; providers implement only {@link #doChat(ChatRequest)}. HTTP backends retry transport
 * failures themselves ({@link #retriesInTransport()}), so this loop then only re-asks after an unusable reply.
 */
public abstract class AbstractChatModel implements ChatModel {
    protected final String backend;
    protected final String model;
    protected final String role;
    protected final UsageMeter meter;
    protected final ResponseCache cache;
    protected final Backoff backoff;
    protected final String defaultEffort;
    protected final Duration defaultTimeout;
    protected final Map<String, String> env;
    private final Semaphore pool;
    private final int maxConcurrency;
    private final int httpAttempts;
    private final io.skillopt4j.backend.internal.RateLimits.Configured limits;
    private final io.skillopt4j.backend.internal.Hedging hedging;
    /** The hedging of the call this thread is making (set around {@link #doChat}), for its accounting. */
    private static final ThreadLocal<io.skillopt4j.backend.internal.Hedging.Call[]> HEDGE = new ThreadLocal<>();

    protected AbstractChatModel(String backend, Builder<?> b) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.model = b.model == null ? "" : b.model;
        this.role = b.role == null || b.role.isBlank() ? "target" : b.role;
        this.meter = b.meter == null ? new UsageMeter() : b.meter;
        this.cache = b.cache == null ? ResponseCache.off() : b.cache;
        this.backoff = b.backoff == null ? Backoff.DEFAULT : b.backoff;
        this.defaultEffort = b.reasoningEffort == null || b.reasoningEffort.isBlank() ? null : b.reasoningEffort.trim();
        this.defaultTimeout = b.timeout;
        this.env = b.env == null ? System.getenv() : Map.copyOf(b.env);
        this.maxConcurrency = Math.max(1, b.maxConcurrency);
        this.httpAttempts = Math.max(0, b.httpAttempts);
        this.pool = new Semaphore(maxConcurrency, true);
        this.limits = new io.skillopt4j.backend.internal.RateLimits.Configured(b.rateLimitRpm, b.rateLimitTpm);
        this.hedging = b.hedgeQuantile > 0 ? new io.skillopt4j.backend.internal.Hedging(b.hedgeQuantile, b.hedgeMaxExtra, pool) : null;
    }

    /** The configured requests and tokens per minute of this model's endpoint (0 = none). */
    public final double[] rateLimit() { return new double[] {limits.rpm(), limits.tpm()}; }

    /** 0 when hedging is off. */
    public final double hedgeQuantile() { return hedging == null ? 0 : hedging.quantile(); }

    public final long hedgedCalls() { return hedging == null ? 0 : hedging.extraCalls(); }

    @Override public final String backend() { return backend; }

    @Override public final String model() { return model; }

    /** The role calls are recorded under (optimizer, target, judge). */
    public final String role() { return role; }

    public final int maxConcurrency() { return maxConcurrency; }

    @Override public final ChatResponse chat(ChatRequest request) {
        ChatRequest req = mergeDefaults(Objects.requireNonNull(request, "request"));
        String key = cache.enabled() ? cache.key(backend, model, cacheParams(req), req) : null;
        if (key != null) {
            ChatResponse hit = cache.lookup(key, backend);
            if (hit != null) {
                meter.record(role, req.stage(), model, hit.usage(), Duration.ZERO, req);
                return hit.withBilling(Billing.REPLAYED);
            }
        }
        BatchScope scope = BatchScope.current();
        BatchSupport batch = scope == null ? null : batchSupport();
        if (batch != null) {
            long t0 = System.nanoTime();
            ChatResponse b = scope.call(this, batch, req);
            // a request the batch did not answer, or answered unusably, is made as a normal call below
            if (b != null && !(req.jsonRequired() && b.toolCalls().isEmpty() && JsonReply.extractObject(b.text()).isEmpty())) {
                ChatResponse r = new ChatResponse(b.text(), b.toolCalls(), b.usage(), Duration.ofNanos(System.nanoTime() - t0),
                        b.model().isEmpty() ? model : b.model(), b.reasoning(), Billing.BATCH);
                meter.record(role, req.stage(), model, r.usage(), r.latency(), req);
                if (key != null) cache.store(key, backend, model, r);
                return r;
            }
        }
        CallDeadline deadline = CallDeadline.current();
        try {
            if (!pool.tryAcquire()) {
                // every slot is held by this model's other calls: an item cut off while waiting here was not slow itself
                CallDeadline.waiting(deadline, true);
                if (deadline == null) pool.acquire();
                else if (!pool.tryAcquire(deadline.nanosLeft(), java.util.concurrent.TimeUnit.NANOSECONDS))
                    throw new BackendException.Retriable(backend, 0, backend + ": no free call slot before the item's time limit"
                            + " (this model's other calls held all " + maxConcurrency + ")", null);
                CallDeadline.waiting(deadline, false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException.NonRetriable(backend, 0, backend + ": interrupted while waiting for a free slot", e);
        }
        try {
            ChatResponse r = callWithRetries(req, deadline);
            meter.record(role, req.stage(), model, r.usage(), r.latency(), req);
            if (key != null) cache.store(key, backend, model, r);
            return r;
        } finally {
            pool.release();
        }
    }

    private ChatResponse callWithRetries(ChatRequest req, CallDeadline deadline) {
        int attempts = req.retries();
        BackendException last = null;
        int made = 0;
        for (int a = 0; a < attempts; a++) {
            if (a > 0) {
                Duration wait = backoff.delay(a - 1, null);
                if (CallDeadline.noRoomFor(deadline, wait)) break; // no time for one more: the last failure stands
                CallDeadline.waiting(deadline, true);
                Backoff.sleep(wait);
            }
            long t0 = System.nanoTime();
            ChatResponse r;
            io.skillopt4j.backend.internal.Hedging.Call[] hedge = new io.skillopt4j.backend.internal.Hedging.Call[1];
            HEDGE.set(hedge);
            made = a + 1;
            try {
                r = doChat(a == 0 || deadline == null ? req : req.toBuilder().timeout(CallDeadline.cut(req.timeout(), deadline)).build());
                int extra = hedge[0] == null ? 0 : hedge[0].extraCalls();
                if (extra > 0) {
                    for (int i = 0; i < extra; i++) meter.recordHedge(role, req.stage(), r.usage());
                    r = r.withBilling(r.billing().withHedges(extra));
                }
            } catch (BackendException.NonRetriable e) {
                throw e;
            } catch (BackendException e) {
                if (retriesInTransport()) throw e;
                last = e;
                continue;
            } catch (RuntimeException e) {
                throw new BackendException.NonRetriable(backend, 0, HttpErrors.oneLine(Redactor.scrub(
                        backend + ": " + e.getClass().getSimpleName() + ": " + e.getMessage())), e);
            } finally {
                HEDGE.remove();
            }
            Duration latency = Duration.ofNanos(System.nanoTime() - t0);
            if (req.jsonRequired() && r.toolCalls().isEmpty() && JsonReply.extractObject(r.text()).isEmpty()) {
                String reply = clip(r.text(), 200);
                last = new BackendException.NonRetriable(backend, 0, backend + ": reply is not the JSON object the request required"
                        + " (after " + (a + 1) + " attempt" + (a == 0 ? "" : "s") + "): " + (reply.isEmpty() ? "(empty reply)" : reply),
                        null);
                continue;
            }
            CallDeadline.waiting(deadline, false);
            return new ChatResponse(r.text(), r.toolCalls(), r.usage(), r.latency().isZero() ? latency : r.latency(),
                    r.model().isEmpty() ? model : r.model(), r.reasoning(), r.billing());
        }
        if (last instanceof BackendException.NonRetriable) throw last;
        throw new BackendException.Retriable(backend, last == null ? 0 : last.status(),
                backend + ": failed after " + made + " attempt" + (made == 1 ? "" : "s")
                        + (made < attempts ? " (the item's time limit left no room for another)" : "") + ": "
                        + (last == null ? "no attempt made" : last.getMessage()), last);
    }

    private ChatRequest mergeDefaults(ChatRequest r) {
        if ((r.reasoningEffort() != null || defaultEffort == null) && (r.timeout() != null || defaultTimeout == null)) return r;
        ChatRequest.Builder b = r.toBuilder();
        if (r.reasoningEffort() == null && defaultEffort != null) b.reasoningEffort(defaultEffort);
        if (r.timeout() == null && defaultTimeout != null) b.timeout(defaultTimeout);
        return b.build();
    }

    /** {@code s} scrubbed of secrets, on one line, cut to {@code max} characters. */
    static String clip(String s, int max) {
        String t = HttpErrors.oneLine(Redactor.scrub(s == null ? "" : s));
        return t.length() > max ? t.substring(0, max) + "..." : t;
    }

    /** The transport policy of one HTTP call; its faults are counted in the meter and written to the {@link TransportLog}. */
    protected final Http.Policy policy(ChatRequest r) {
        io.skillopt4j.backend.internal.Hedging.Call hedge = null;
        io.skillopt4j.backend.internal.Hedging.Call[] slot = HEDGE.get();
        if (hedging != null && slot != null) {
            hedge = hedging.call(r.stage());
            slot[0] = hedge;
        }
        return new Http.Policy(backend, Math.max(r.retries(), httpAttempts), backoff, r.timeout(), sink(r.stage()), limits, hedge,
                CallDeadline.current());
    }

    /** Batch API requests (upload, poll, download): five attempts at least, faults under stage "batch". */
    protected final Http.Policy batchPolicy() {
        return new Http.Policy(backend, Math.max(5, httpAttempts), backoff, null, sink("batch"), limits, null);
    }

    private Http.FaultSink sink(String stage) {
        return (kind, line) -> {
            meter.recordFault(role, stage, kind);
            TransportLog.line(kind + " " + role + "/" + stage + " " + line);
        };
    }

    protected abstract ChatResponse doChat(ChatRequest request);

    /** How this backend sends calls through a provider Batch API inside a {@link BatchScope}, or null when it can't. */
    protected BatchSupport batchSupport() { return null; }

    private volatile BatchSupport support;

    /** The support {@code make} returns, made once per model. */
    protected final BatchSupport batchOnce(java.util.function.Supplier<BatchSupport> make) {
        BatchSupport b = support;
        if (b == null) support = b = make.get();
        return b;
    }

    /** Work in a per-call temporary folder. */
    protected interface TempWork { ChatResponse in(Path tmp) throws IOException; }

    /** Runs {@code work} in a fresh temporary folder, deleted afterwards; an IOException is a non-retriable failure. */
    protected final ChatResponse inTempDir(String prefix, TempWork work) {
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory(prefix);
            return work.in(tmp);
        } catch (IOException e) {
            throw new BackendException.NonRetriable(backend, 0, backend + ": cannot prepare temp dir: " + e.getMessage(), e);
        } finally {
            AtomicFiles.deleteTreeQuietly(tmp);
        }
    }

    /** Refuses a request with tools ({@code why} they are not supported) or images: a non-retriable failure. */
    protected final void requireTextOnly(ChatRequest r, String why) {
        if (!r.tools().isEmpty() || (r.toolChoice() != null && !r.toolChoice().isBlank()))
            throw new BackendException.NonRetriable(backend, 0, backend + ": tools are not supported (" + why + ")", null);
        if (r.messages().stream().anyMatch(m -> !m.imageUrls().isEmpty()))
            throw new BackendException.NonRetriable(backend, 0, backend + ": images are not supported; only text parts can be sent", null);
    }

    /** True when {@link #doChat} already retried transport failures (HTTP backends). */
    protected boolean retriesInTransport() { return false; }

    /** Provider settings that change the reply and so belong in the cache key (no secrets). */
    protected Map<String, Object> cacheParams(ChatRequest r) { return Map.of(); }

    /** Redacted: never prints keys. */
    @Override public String toString() {
        return getClass().getSimpleName() + "[backend=" + backend + ", model=" + model + ", role=" + role + "]";
    }

    /** Not thread-safe; use once. Settings every backend shares. */
    @SuppressWarnings("unchecked")
    public abstract static class Builder<B extends Builder<B>> {
        protected String model;
        protected String role = "target";
        protected UsageMeter meter;
        protected ResponseCache cache;
        protected Backoff backoff;
        protected String reasoningEffort;
        protected Duration timeout;
        protected Map<String, String> env;
        protected int maxConcurrency = 8;
        protected int httpAttempts;
        protected double rateLimitRpm;
        protected double rateLimitTpm;
        protected double hedgeQuantile;
        protected double hedgeMaxExtra = 0.05;

        public B model(String m) { this.model = m; return (B) this; }
        public B role(String r) { this.role = r; return (B) this; }
        public B meter(UsageMeter m) { this.meter = m; return (B) this; }
        public B cache(ResponseCache c) { this.cache = c; return (B) this; }
        public B backoff(Backoff b) { this.backoff = b; return (B) this; }
        public B reasoningEffort(String e) { this.reasoningEffort = e; return (B) this; }
        public B timeout(Duration t) { this.timeout = t; return (B) this; }
        /** What the backend's child processes and credential lookups see, scrubbed for a child (default: this process's
         *  environment). */
        public B env(Map<String, String> e) { this.env = e; return (B) this; }
        public B maxConcurrency(int n) { this.maxConcurrency = n; return (B) this; }
        /** Least HTTP attempts per call for transient faults (0, the default, = the request's own retries). */
        public B httpAttempts(int n) { this.httpAttempts = n; return (B) this; }
        /** Requests and tokens per minute allowed, for providers without rate-limit headers (0 = none; the lower wins). */
        public B rateLimit(double rpm, double tpm) { this.rateLimitRpm = rpm; this.rateLimitTpm = tpm; return (B) this; }
        /** A call still running after the {@code quantile} of its stage's latencies is sent again, first reply wins, at most
         *  {@code maxExtra} extra calls per call; 0 = off. */
        public B hedge(double quantile, double maxExtra) { this.hedgeQuantile = quantile; this.hedgeMaxExtra = maxExtra; return (B) this; }

        public abstract ChatModel build();
    }

    /** Not thread-safe; use once. What backends on an OpenAI-style chat-completions endpoint set besides. */
    @SuppressWarnings("unchecked")
    public abstract static class EndpointBuilder<B extends EndpointBuilder<B>> extends Builder<B> {
        protected String baseUrl;
        protected String apiKey;
        protected Double temperature;
        protected int maxTokens = 8000;

        protected EndpointBuilder(String defaultModel, Double defaultTemperature) {
            this.model = defaultModel;
            this.temperature = defaultTemperature;
        }

        public B baseUrl(String url) { this.baseUrl = url; return (B) this; }
        public B apiKey(String key) { this.apiKey = key; return (B) this; }
        /** Sampling temperature; null omits the field. */
        public B temperature(Double t) { this.temperature = t; return (B) this; }
        /** Caps {@code max_tokens} (upstream default 8000). */
        public B maxTokens(int n) { this.maxTokens = n; return (B) this; }
    }
}
