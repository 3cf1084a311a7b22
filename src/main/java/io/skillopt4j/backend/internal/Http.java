package io.skillopt4j.backend.internal;

import io.skillopt4j.backend.Backoff;
import io.skillopt4j.internal.Redactor;
import okhttp3.ConnectionPool;
import okhttp3.ConnectionSpec;
import okhttp3.Dispatcher;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe. The process-wide {@link OkHttpClient} and its interceptors. Every backend derives its
 * variant with {@link #client(Duration)} ({@code newBuilder()}), so all share one connection pool.
 * Interceptor order (application level): {@link Retry} first, then {@link Log}; each retry attempt
 * therefore gets its own log line. Per-call settings travel as a {@link Policy} request tag.
 */
public final class Http {
    private static final System.Logger LOG = System.getLogger("io.skillopt4j.backend.http");
    private static final ConnectionPool POOL = new ConnectionPool();
    private static final Dispatcher DISPATCHER = new Dispatcher();

    private Http() {}

    private static OkHttpClient.Builder base() {
        return new OkHttpClient.Builder()
                .connectionPool(POOL)
                .dispatcher(DISPATCHER)
                .connectTimeout(Duration.ofSeconds(30))
                .readTimeout(Duration.ofSeconds(600))
                .retryOnConnectionFailure(false) // our Retry interceptor decides
                .socketFactory(NoDelaySockets.INSTANCE)
                .addInterceptor(new Retry())
                .addInterceptor(new Log());
    }

    // Built on first use: a TLS-capable client loads the JDK's trust store (~0.3 s in a cold JVM), which a
    // run against a plain-HTTP server (local model servers, the simulator, the shared fake LLM) never needs.
    private static final class Tls { static final OkHttpClient SHARED = base().build(); }
    private static final class Plain {
        static final OkHttpClient SHARED = base().connectionSpecs(List.of(ConnectionSpec.CLEARTEXT)).build();
    }

    /** Returns the shared client. */
    public static OkHttpClient shared() { return Tls.SHARED; }

    /** Returns a variant of the shared client with {@code readTimeout} as default per-attempt read timeout. */
    public static OkHttpClient client(Duration readTimeout) {
        return Tls.SHARED.newBuilder().readTimeout(readTimeout).writeTimeout(readTimeout).build();
    }

    /**
     * As {@link #client(Duration)} for calls to {@code baseUrl} only: a plain {@code http://} URL gets a
     * cleartext-only client (same pool and dispatcher) that never initialises TLS.
     */
    public static OkHttpClient client(Duration readTimeout, String baseUrl) {
        boolean plain = baseUrl != null && baseUrl.regionMatches(true, 0, "http://", 0, 7);
        OkHttpClient b = plain ? Plain.SHARED : Tls.SHARED;
        return b.newBuilder().readTimeout(readTimeout).writeTimeout(readTimeout).build();
    }

    /** Immutable. Per-call retry settings: total attempts, backoff, per-attempt timeout (null = client's). */
    public record Policy(String backend, int attempts, Backoff backoff, Duration timeout) {
        public Policy {
            attempts = Math.max(1, attempts);
            backoff = backoff == null ? Backoff.DEFAULT : backoff;
        }
    }

    /**
     * Retries 408/409/429/5xx responses and I/O failures (timeouts, resets) with exponential backoff and
     * jitter, honouring {@code Retry-After}; never retries other statuses. After the last attempt the last
     * response is returned (or the last exception thrown) for the caller to map.
     */
    static final class Retry implements Interceptor {
        @Override public Response intercept(Chain chain) throws IOException {
            Request req = chain.request();
            Policy p = req.tag(Policy.class);
            if (p == null) return chain.proceed(req);
            Chain c = chain;
            if (p.timeout() != null) {
                int ms = (int) Math.min(Integer.MAX_VALUE, Math.max(1, p.timeout().toMillis()));
                c = c.withReadTimeout(ms, TimeUnit.MILLISECONDS).withWriteTimeout(ms, TimeUnit.MILLISECONDS);
            }
            IOException lastIo = null;
            for (int attempt = 0; ; attempt++) {
                boolean last = attempt + 1 >= p.attempts();
                Duration retryAfter = null;
                try {
                    Response r = c.proceed(req);
                    if (r.isSuccessful()) {
                        // a 200 whose body is cut off or is not JSON is a transient glitch (proxies, overloaded
                        // servers): read it here, inside the retry loop, and try again when it is unusable
                        Response buffered = bufferJson(r, last);
                        if (buffered != null) return buffered;
                        LOG.log(System.Logger.Level.INFO, "{0}: HTTP 200 with a malformed body, retrying (attempt {1}/{2})",
                                p.backend(), attempt + 2, p.attempts());
                        lastIo = new IOException(p.backend() + ": malformed response body");
                    } else {
                        if (!HttpErrors.retriable(r.code()) || last) return r;
                        retryAfter = retryAfter(r.header("Retry-After"));
                        LOG.log(System.Logger.Level.INFO, "{0}: HTTP {1}, retrying (attempt {2}/{3})", p.backend(), r.code(), attempt + 2, p.attempts());
                        r.close();
                    }
                } catch (IOException e) {
                    lastIo = e;
                    if (last || chain.call().isCanceled()) throw e;
                    LOG.log(System.Logger.Level.INFO, "{0}: {1}, retrying (attempt {2}/{3})", p.backend(),
                            Redactor.scrub(String.valueOf(e)), attempt + 2, p.attempts());
                }
                try {
                    Backoff.sleep(p.backoff().delay(attempt, retryAfter));
                } catch (IllegalStateException interrupted) {
                    throw lastIo != null ? lastIo : new java.io.InterruptedIOException("interrupted during backoff");
                }
            }
        }
    }

    /**
     * Returns {@code r} with its body read into memory, or null when the body is truncated or (for a JSON
     * content type) does not parse; on the last attempt the body is returned as read, for the caller to report.
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
        boolean json = type != null && "json".equalsIgnoreCase(type.subtype());
        if (json && !last) {
            // a streaming pass checks the syntax without building a tree; the caller parses the body once
            try (com.fasterxml.jackson.core.JsonParser p = io.skillopt4j.internal.Json.MAPPER.getFactory().createParser(bytes)) {
                while (p.nextToken() != null) p.skipChildren();
            } catch (IOException e) {
                return null;
            }
        }
        return r.newBuilder().body(okhttp3.ResponseBody.create(bytes, type)).build();
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

        private static String redactQuery(String url) {
            return url.replaceAll("(?i)([?&](?:api[-_]?key|key|token|sig)=)[^&]+", "$1***");
        }
    }

    /** Lower-cases for header comparisons. */
    static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
