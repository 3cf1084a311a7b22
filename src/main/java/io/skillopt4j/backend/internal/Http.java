package io.skillopt4j.backend.internal;

import io.skillopt4j.backend.Backoff;
import io.skillopt4j.backend.CallDeadline;
import io.skillopt4j.internal.Redactor;
import okhttp3.ConnectionSpec;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe. The process-wide {@link OkHttpClient}: every backend derives its variant with
 * {@link #client(Duration, String)}, so all share one pool, dispatcher and set of endpoint rate limits. It is built
 * cleartext-only, since a TLS-capable client loads the trust store even when every endpoint is {@code http://}; the
 * TLS one is derived on first use ({@link HttpsOnDemand}). Per-call settings travel as a {@link Policy} request tag.
 */
public final class Http {
    private static final System.Logger LOG = System.getLogger("io.skillopt4j.backend.http");

    private Http() {}

    /**
     * The one client. Its dispatcher's threads are daemons and its per-host limit is lifted: each model bounds its own
     * concurrency and {@link RateLimits} paces each endpoint. Interceptor order: {@link HttpsOnDemand}, {@link Retry},
     * {@link RateLimits.Pace}, {@link Log}, so each attempt waits for its endpoint and gets its own DEBUG line.
     */
    private static final OkHttpClient CLEARTEXT = new OkHttpClient.Builder()
            .connectionSpecs(java.util.List.of(ConnectionSpec.CLEARTEXT))
            .followSslRedirects(false) // a redirect to https is followed by the TLS client ({@link HttpsOnDemand})
            .addInterceptor(new HttpsOnDemand())
            .dispatcher(dispatcher())
            .connectTimeout(Duration.ofSeconds(30))
            .readTimeout(Duration.ofSeconds(600))
            .retryOnConnectionFailure(false) // our Retry decides (OkHttp's own would also silently repeat 408s)
            .socketFactory(NoDelaySockets.INSTANCE)
            .proxySelector(EnvProxies.fromProcess())
            .proxyAuthenticator(EnvProxies.fromProcess().authenticator())
            .addInterceptor(new Retry())
            .addInterceptor(new RateLimits.Pace(new RateLimits()))
            .addInterceptor(new Log())
            .addNetworkInterceptor(new Stale())
            .build();

    private static okhttp3.Dispatcher dispatcher() {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool(io.skillopt4j.internal.Daemons.named("skillopt-http"));
        okhttp3.Dispatcher d = new okhttp3.Dispatcher(pool);
        d.setMaxRequests(1024);
        d.setMaxRequestsPerHost(1024);
        return d;
    }

    /** The shared client for any URL (TLS set up on first use). */
    public static OkHttpClient shared() { return Tls.CLIENT; }

    /** Holder: the TLS-capable client is built when first asked for. */
    private static final class Tls {
        static final OkHttpClient CLIENT = HttpsOnDemand.tlsCapable(CLEARTEXT);
    }

    /** A variant of the shared client for any URL; {@code readTimeout} is the per-attempt read and write timeout. */
    public static OkHttpClient client(Duration readTimeout) { return client(readTimeout, null); }

    /** As {@link #client(Duration)} for calls under {@code url}: for {@code http://}, one that sets up no TLS. */
    public static OkHttpClient client(Duration readTimeout, String url) {
        okhttp3.HttpUrl u = url == null ? null : okhttp3.HttpUrl.parse(url);
        OkHttpClient base = u != null && !u.isHttps() ? CLEARTEXT : shared();
        return base.newBuilder().readTimeout(readTimeout).writeTimeout(readTimeout).build();
    }

    /** Where the transport reports a fault: {@code kind} "retries", "give_ups" or "fast_fails", and a scrubbed line. */
    @FunctionalInterface
    public interface FaultSink {
        FaultSink NONE = (kind, line) -> { };

        void fault(String kind, String line);
    }

    /**
     * Immutable. Per-call settings. Null means: {@code timeout} the client's, {@code limits} only the provider's
     * headers, {@code hedge} never duplicated, {@code deadline} none.
     */
    public record Policy(String backend, int attempts, Backoff backoff, Duration timeout, FaultSink sink,
                         RateLimits.Configured limits, Hedging.Call hedge, CallDeadline deadline) {
        public Policy {
            attempts = Math.max(1, attempts);
            backoff = backoff == null ? Backoff.DEFAULT : backoff;
            sink = sink == null ? FaultSink.NONE : sink;
            limits = limits == null ? RateLimits.Configured.NONE : limits;
        }

        public Policy(String backend, int attempts, Backoff backoff, Duration timeout, FaultSink sink,
                      RateLimits.Configured limits, Hedging.Call hedge) {
            this(backend, attempts, backoff, timeout, sink, limits, hedge, null);
        }

        public Policy(String backend, int attempts, Backoff backoff, Duration timeout) {
            this(backend, attempts, backoff, timeout, FaultSink.NONE, RateLimits.Configured.NONE, null);
        }
    }

    /** A server that cannot be reached at all: never retried, since backoff would only delay the one clear line. */
    static final class Unreachable extends IOException {
        Unreachable(String message, IOException cause) { super(message, cause); }
    }

    /** The one-line reason a connect failed, or null when {@code e} is not a can't-reach-it failure. */
    static String unreachable(IOException e) {
        if (e instanceof java.net.UnknownHostException) return "unknown host " + e.getMessage();
        if (e instanceof java.net.NoRouteToHostException) return "no route to host";
        if (e instanceof java.net.ConnectException) {
            // OkHttp says "Failed to connect to /host:port"; the JDK's cause says why
            for (Throwable t = e; t != null; t = t.getCause())
                if (t.getMessage() != null && t.getMessage().toLowerCase(Locale.ROOT).contains("refused")) return "connection refused";
            return "could not connect";
        }
        return null;
    }

    /**
     * Retries 408/409/429/5xx, I/O failures and cut-off or non-JSON 200s with backoff honouring {@code Retry-After};
     * fails at once for an {@link Unreachable} server. The last response is returned (or exception thrown) for the
     * caller to map; retries and give-ups go to the policy's {@link FaultSink}, never to stderr.
     */
    static final class Retry implements Interceptor {
        @Override public Response intercept(Chain chain) throws IOException {
            Request req = chain.request();
            Policy p = req.tag(Policy.class);
            if (p == null) return chain.proceed(req);
            // scrubbed lazily: only fault lines need it
            java.util.function.Supplier<String> url = () -> Redactor.scrub(Log.redactQuery(req.url().toString()));
            IOException lastIo = null;
            int stale = 0;
            for (int attempt = 0; ; attempt++) {
                Duration wait; // computed once: the deadline check and the sleep see the same jittered wait
                String why;
                int ms = millis(attempt == 0 ? p.timeout() : CallDeadline.cut(p.timeout(), p.deadline())); // retries end by the deadline
                Chain c = ms == 0 ? chain : chain.withReadTimeout(ms, TimeUnit.MILLISECONDS).withWriteTimeout(ms, TimeUnit.MILLISECONDS);
                try {
                    Response r = c.proceed(req);
                    if (r.isSuccessful()) {
                        wait = p.backoff().delay(attempt, null);
                        boolean last = isLast(p, attempt, wait);
                        // a cut-off or non-JSON 200 is a transient glitch: read it inside the loop to retry it
                        Response buffered = bufferJson(r, last);
                        if (buffered != null) {
                            if (last && buffered.header(MALFORMED) != null)
                                p.sink().fault("give_ups", "malformed body after " + (attempt + 1) + " attempts: " + url.get());
                            CallDeadline.waiting(p.deadline(), false);
                            return buffered.header(MALFORMED) == null ? buffered : buffered.newBuilder().removeHeader(MALFORMED).build();
                        }
                        why = "HTTP 200 with a malformed or cut-off body";
                        lastIo = new IOException(p.backend() + ": malformed response body");
                    } else {
                        if (!HttpErrors.retriable(r.code())) return r;
                        wait = p.backoff().delay(attempt, retryAfter(r));
                        if (isLast(p, attempt, wait)) {
                            p.sink().fault("give_ups", "HTTP " + r.code() + " after " + (attempt + 1) + " attempts: " + url.get());
                            return r;
                        }
                        why = "HTTP " + r.code();
                        r.close();
                    }
                } catch (IOException e) {
                    String down = unreachable(e);
                    if (down != null) {
                        String msg = p.backend() + ": cannot reach " + url.get() + ": " + down + " (check the base URL and that the server is running)";
                        p.sink().fault("fast_fails", msg);
                        throw new Unreachable(msg, e);
                    }
                    lastIo = e;
                    if (chain.call().isCanceled() || Thread.currentThread().isInterrupted()) throw e; // ours: no fault, no retry
                    if (e instanceof StaleConnection && stale++ < MAX_STALE) {
                        // not the server's answer: again at once on another connection
                        p.sink().fault("retries", "stale pooled connection (" + HttpErrors.oneLine(String.valueOf(e.getCause()))
                                + "), retrying at once on a new connection: " + url.get());
                        attempt--;
                        continue;
                    }
                    wait = p.backoff().delay(attempt, null);
                    if (isLast(p, attempt, wait)) {
                        p.sink().fault("give_ups", Redactor.scrub(HttpErrors.oneLine(String.valueOf(e))) + " after " + (attempt + 1) + " attempts: " + url.get());
                        throw e;
                    }
                    why = Redactor.scrub(HttpErrors.oneLine(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())));
                }
                if (Thread.currentThread().isInterrupted()) throw lastIo != null ? lastIo : new java.io.InterruptedIOException("interrupted");
                p.sink().fault("retries", why + ", retrying in " + wait.toMillis() + " ms (attempt " + (attempt + 2) + "/" + p.attempts() + "): " + url.get());
                CallDeadline.waiting(p.deadline(), true);
                sleepUnlessCanceled(chain.call(), wait, lastIo);
            }
        }
    }

    private static boolean isLast(Policy p, int attempt, Duration wait) { // attempts used up, or no time left for one after wait
        return attempt + 1 >= p.attempts() || CallDeadline.noRoomFor(p.deadline(), wait);
    }

    private static int millis(Duration d) { return d == null ? 0 : (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis())); }

    /** Stale-connection retries per call beyond the policy's attempts. */
    private static final int MAX_STALE = 3;

    /** An I/O failure before any response on a connection that had already served a request (a stale pooled one). */
    static final class StaleConnection extends IOException {
        StaleConnection(IOException cause) { super(cause.getMessage(), cause); }
    }

    /** Network interceptor: a non-timeout failure on a reused connection before any headers is stale. */
    static final class Stale implements Interceptor {
        private final java.util.Map<okhttp3.Connection, Boolean> used = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

        @Override public Response intercept(Chain chain) throws IOException {
            okhttp3.Connection conn = chain.connection();
            boolean reused = conn != null && used.put(conn, Boolean.TRUE) != null;
            try {
                return chain.proceed(chain.request());
            } catch (IOException e) {
                throw reused && !(e instanceof java.io.InterruptedIOException) ? new StaleConnection(e) : e;
            }
        }
    }

    /** Internal marker on a last-attempt body that failed the JSON check (removed before the caller sees it). */
    private static final String MALFORMED = "X-SkillOpt4J-Malformed";

    /**
     * {@code r} with its body read into memory, or null when the body is truncated or (for a JSON content type)
     * does not parse; on the last attempt it is returned as read, marked {@link #MALFORMED} when it failed.
     */
    static Response bufferJson(Response r, boolean last) throws IOException {
        okhttp3.ResponseBody body = r.body();
        if (body == null) return r;
        okhttp3.MediaType type = body.contentType();
        byte[] bytes;
        try {
            bytes = body.bytes();
        } catch (IOException e) {
            r.close();
            if (last) throw e;
            return null;
        }
        boolean bad = false;
        com.fasterxml.jackson.databind.JsonNode tree = null;
        if (type != null && "json".equalsIgnoreCase(type.subtype())) {
            // one pass checks the body and builds the tree the caller takes ({@link ParsedJson})
            try {
                tree = io.skillopt4j.internal.Json.bodyTree(bytes);
            } catch (IOException e) {
                if (!last) return null;
                bad = true;
            }
        }
        // Jackson detects the encoding itself; a body in another declared charset is left for the caller to decode
        java.nio.charset.Charset cs = type == null ? null : type.charset();
        okhttp3.ResponseBody body2 = tree != null && (cs == null || cs.equals(java.nio.charset.StandardCharsets.UTF_8))
                ? new ParsedJson(bytes, type, tree) : okhttp3.ResponseBody.create(bytes, type);
        Response.Builder out = r.newBuilder().body(body2);
        return (bad ? out.header(MALFORMED, "1") : out).build();
    }

    /** A buffered JSON reply body with its tree, parsed once inside the retry loop. */
    public static final class ParsedJson extends okhttp3.ResponseBody {
        private final byte[] bytes;
        private final okhttp3.MediaType type;
        private final com.fasterxml.jackson.databind.JsonNode tree;

        ParsedJson(byte[] bytes, okhttp3.MediaType type, com.fasterxml.jackson.databind.JsonNode tree) {
            this.bytes = bytes;
            this.type = type;
            this.tree = tree;
        }

        /** The body's first JSON value, as {@code readTree} of the decoded text returns it. */
        public com.fasterxml.jackson.databind.JsonNode tree() { return tree; }

        @Override public okhttp3.MediaType contentType() { return type; }

        @Override public long contentLength() { return bytes.length; }

        @Override public okio.BufferedSource source() { return new okio.Buffer().write(bytes); }
    }

    /** Sleeps {@code d}, throwing early when the call is cancelled (a hedged twin won) or the thread interrupted. */
    static void sleepUnlessCanceled(okhttp3.Call call, Duration d, IOException last) throws IOException {
        long end = System.nanoTime() + d.toNanos();
        try {
            for (long left; (left = end - System.nanoTime()) > 0; ) {
                if (call.isCanceled()) throw last != null ? last : new IOException("Canceled");
                Thread.sleep(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 50)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw last != null ? last : new java.io.InterruptedIOException("interrupted during backoff");
        }
    }

    /** The wait a reply asks for: {@code retry-after-ms} (OpenAI, Azure), else {@code Retry-After}, else null. */
    static Duration retryAfter(Response r) {
        String ms = r.header("retry-after-ms");
        if (ms != null) {
            try {
                return Duration.ofMillis((long) Math.max(0, Double.parseDouble(ms.trim())));
            } catch (NumberFormatException ignored) {
                // fall back to Retry-After
            }
        }
        return retryAfter(r.header("Retry-After"));
    }

    /** Parses Retry-After as delta-seconds or an HTTP date; null when absent or unparsable. */
    static Duration retryAfter(String value) {
        if (value == null || value.isBlank()) return null;
        String v = value.trim();
        try {
            return Duration.ofMillis((long) (Double.parseDouble(v) * 1000));
        } catch (NumberFormatException ignored) {
            // HTTP-date form below
        }
        try {
            ZonedDateTime t = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration d = Duration.between(ZonedDateTime.now(t.getZone()), t);
            return d.isNegative() ? Duration.ZERO : d;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Logs method, redacted URL, status and latency at DEBUG; never headers or bodies (they may hold keys). */
    static final class Log implements Interceptor {
        @Override public Response intercept(Chain chain) throws IOException {
            Request req = chain.request();
            long t0 = System.nanoTime();
            Response r = chain.proceed(req);
            if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
                LOG.log(System.Logger.Level.DEBUG, "{0} {1} -> {2} in {3} ms", req.method(),
                        Redactor.scrub(redactQuery(req.url().toString())), r.code(), (System.nanoTime() - t0) / 1_000_000);
            }
            return r;
        }

        static String redactQuery(String url) {
            return url.replaceAll("(?i)([?&](?:api[-_]?key|key|token|sig)=)[^&]+", "$1***");
        }
    }
}
