package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe. Client-side rate limits, one {@link Limiter} per endpoint (scheme, host, port, path) shared by every
 * model that calls it, so requests arrive when the provider has room instead of being refused. A limiter mirrors the
 * provider's buckets from OpenAI's {@code x-ratelimit-*} or Anthropic's {@code anthropic-ratelimit-*} headers (else
 * the {@link Configured} rates), holds the endpoint back while a 429's retry-after runs, and lowers the calls in
 * flight when a 429 is not explained by the bucket (a concurrency cap), raising them again one step per success.
 */
public final class RateLimits {
    private final ConcurrentHashMap<String, Limiter> limiters = new ConcurrentHashMap<>();

    /** Immutable. Configured requests and tokens per minute of an endpoint, 0 = none (the headers still count). */
    public record Configured(double rpm, double tpm) {
        public static final Configured NONE = new Configured(0, 0);

        public Configured {
            rpm = Math.max(0, rpm);
            tpm = Math.max(0, tpm);
        }
    }

    Limiter limiter(HttpUrl url) {
        String key = url.scheme() + "://" + url.host() + ":" + url.port() + url.encodedPath();
        return limiters.computeIfAbsent(key, k -> new Limiter());
    }

    /** Application interceptor inside the retry loop: every attempt acquires a slot before it is sent. */
    record Pace(RateLimits limits) implements Interceptor {
        @Override public Response intercept(Chain chain) throws IOException {
            Request req = chain.request();
            Http.Policy p = req.tag(Http.Policy.class);
            Limiter l = limits.limiter(req.url());
            Configured c = p == null ? Configured.NONE : p.limits();
            long ticket = l.acquire(c, chain.call());
            Response r;
            try {
                r = chain.proceed(req);
            } catch (IOException | RuntimeException e) {
                l.release();
                throw e;
            }
            l.observe(ticket, r, c.tpm() > 0 ? usedTokens(r) : 0);
            return r;
        }
    }

    /** Tokens a reply reports (OpenAI total_tokens, Anthropic input + output), from a peeked copy of the body. */
    static long usedTokens(Response r) {
        if (!r.isSuccessful() || r.body() == null) return 0;
        try {
            JsonNode u = io.skillopt4j.internal.Json.tree(r.peekBody(16L << 20).string()).path("usage");
            if (u.has("total_tokens")) return u.path("total_tokens").asLong();
            return u.path("input_tokens").asLong() + u.path("output_tokens").asLong()
                    + u.path("prompt_tokens").asLong() + u.path("completion_tokens").asLong();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Successes after which a concurrency ceiling learnt from a 429 is tried again (the cap may have been lifted). */
    static final int PROBE_AFTER = 100;

    /** Send times kept per endpoint: a reply to an attempt older than this many sends no longer moves the bucket. */
    static final int SENT_KEPT = 4096;

    /** Thread-safe. One endpoint's request bucket, token bucket, hold and concurrency limit. */
    static final class Limiter {
        private double rate;          // requests per second (0 = unknown: no pacing)
        private double capacity = 1;  // requests the bucket holds
        private double tokens = 1;
        private long stamp = System.nanoTime();
        private long sent;            // attempts sent so far (the sequence number of the next one)
        private final long[] sentAt = new long[SENT_KEPT]; // send times of the last attempts, by sequence number
        private double headerRate;    // from the provider's limit header (0 = none seen)
        private double configuredRate; // from the configuration (0 = none)
        private double tokRate, tokCap, tokLevel;
        private long tokStamp = System.nanoTime();
        private long holdUntil;       // nothing is sent before this (a 429's retry-after, an exhausted token budget)
        private int inFlight;
        private double maxInFlight = Double.MAX_VALUE;
        private int ceiling = Integer.MAX_VALUE; // fewest calls in flight a concurrency 429 was seen at
        private int sinceCeiling;                // successes since then: after PROBE_AFTER the ceiling is tried again

        /** Waits until a request may be sent; returns its sequence number. */
        synchronized long acquire(Configured c, okhttp3.Call call) throws IOException {
            configure(c);
            while (true) {
                long now = System.nanoTime();
                refill(now);
                long wait = 0;
                if (holdUntil - now > 0) wait = holdUntil - now;
                else if (inFlight >= Math.max(1, (int) maxInFlight)) wait = TimeUnit.MILLISECONDS.toNanos(50);
                else if (rate > 0 && tokens < 1) wait = (long) ((1 - tokens) / rate * 1e9);
                else if (tokRate > 0 && tokLevel < 0) wait = (long) (-tokLevel / tokRate * 1e9);
                if (wait <= 0) break;
                if (call.isCanceled()) throw new IOException("Canceled");
                try {
                    wait(Math.max(1, Math.min((wait + 999_999) / 1_000_000, 50)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while waiting for the rate limit");
                }
            }
            if (rate > 0) tokens -= 1;
            inFlight++;
            long seq = sent++;
            sentAt[(int) (seq % SENT_KEPT)] = System.nanoTime();
            return seq;
        }

        synchronized void release() {
            inFlight--;
            notifyAll();
        }

        private void configure(Configured c) {
            double r = c.rpm() / 60.0;
            if (r > 0 && configuredRate != r) {
                configuredRate = r;
                // a provider without headers says nothing of its burst: a bucket of one, evenly spaced requests
                tokens = Math.min(tokens, capacity);
                rate = effectiveRate();
            }
            double t = c.tpm() / 60.0;
            if (t > 0 && tokRate != t) {
                tokRate = t;
                tokCap = Math.max(1, t);
                tokLevel = Math.min(tokLevel == 0 ? tokCap : tokLevel, tokCap);
            }
        }

        private void refill(long now) {
            if (rate > 0) tokens = Math.min(capacity, tokens + rate * (now - stamp) / 1e9);
            stamp = now;
            if (tokRate > 0) tokLevel = Math.min(tokCap, tokLevel + tokRate * (now - tokStamp) / 1e9);
            tokStamp = now;
        }

        /** Learns from the reply to attempt {@code seq} (its headers, a 429) and frees its slot. */
        synchronized void observe(long seq, Response r, long usedTokens) {
            long now = System.nanoTime();
            inFlight--;
            refill(now);
            if (tokRate > 0 && usedTokens > 0) tokLevel -= usedTokens;
            Bucket req = Bucket.of(r, "requests");
            if (req.limit > 0) {
                headerRate = req.limit / 60.0;
                rate = effectiveRate();
            }
            if (req.remaining >= 0 && rate > 0 && sent - seq <= SENT_KEPT) {
                // the provider's bucket when this attempt arrived, refilled since, less what was sent after it
                double atArrival = req.remaining;
                if (req.reset != null) {
                    double full = req.remaining + req.reset.toNanos() / 1e9 * rate;
                    // remaining is rounded down, the reset exact: their sum is the capacity less a fraction
                    capacity = Math.max(capacity, Math.ceil(full - 1e-3));
                    atArrival = Math.min(req.remaining + 1, Math.max(req.remaining, capacity - req.reset.toNanos() / 1e9 * rate));
                }
                double since = (now - sentAt[(int) (seq % SENT_KEPT)]) / 1e9;
                // only ever lowered: an earlier request may reach the provider later, missing from its count
                tokens = Math.min(tokens, Math.min(capacity, atArrival + rate * since - (sent - seq - 1)));
            }
            Bucket tok = Bucket.of(r, "tokens");
            if (tok.remaining >= 0 && tok.reset != null && tok.remaining < Math.max(1, usedTokens))
                holdUntil = Math.max(holdUntil, now + tok.reset.toNanos());
            if (r.code() == 429) {
                boolean bucketEmpty = req.remaining == 0 || (tok.remaining >= 0 && tok.remaining < Math.max(1, usedTokens));
                if (bucketEmpty || req.remaining < 0 && inFlight == 0) {
                    // the bucket is empty (or nothing else was in flight): every request waits out the retry-after
                    Duration after = Http.retryAfter(r);
                    if (after != null) holdUntil = Math.max(holdUntil, now + after.toNanos());
                } else {
                    // a concurrency cap: fewer calls in flight, and not above this count again for a while
                    ceiling = Math.min(ceiling, inFlight + 1);
                    sinceCeiling = 0;
                    maxInFlight = Math.max(1, Math.min(maxInFlight, inFlight + 1) - 1);
                }
            } else if (r.isSuccessful() && maxInFlight != Double.MAX_VALUE) {
                if (++sinceCeiling >= PROBE_AFTER) ceiling = Integer.MAX_VALUE;
                maxInFlight = Math.min(maxInFlight + 1 / Math.max(1, maxInFlight), Math.max(1, ceiling - 1.0));
            }
            notifyAll();
        }

        /** The lower of the provider's and the configured rate (requests per second), 0 when neither is known. */
        private double effectiveRate() {
            if (headerRate > 0 && configuredRate > 0) return Math.min(headerRate, configuredRate);
            return Math.max(headerRate, configuredRate);
        }

        synchronized double maxInFlight() { return maxInFlight; }
    }

    /** One bucket's headers of a reply: limit, remaining (-1 = absent) and time to full (null = absent). */
    record Bucket(double limit, double remaining, Duration reset) {
        static Bucket of(Response r, String kind) {
            // OpenAI's header, else Anthropic's
            String limit = r.header("x-ratelimit-limit-" + kind, r.header("anthropic-ratelimit-" + kind + "-limit"));
            String left = r.header("x-ratelimit-remaining-" + kind, r.header("anthropic-ratelimit-" + kind + "-remaining"));
            String reset = r.header("x-ratelimit-reset-" + kind, r.header("anthropic-ratelimit-" + kind + "-reset"));
            return new Bucket(number(limit, 0), number(left, -1), reset == null ? null : resetIn(reset));
        }

        private static double number(String v, double absent) {
            if (v == null) return absent;
            try {
                return Double.parseDouble(v.trim());
            } catch (NumberFormatException e) {
                return absent;
            }
        }
    }

    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|us|µs|ns|h|m|s)");

    /** Parses a reset header: a Go-style duration ({@code "6m0s"}), seconds or an RFC 3339 instant; else null. */
    static Duration resetIn(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty()) return null;
        if (s.matches("\\d+(\\.\\d+)?")) return Duration.ofNanos((long) (Double.parseDouble(s) * 1e9));
        Matcher m = GO_DURATION.matcher(s);
        double seconds = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            double n = Double.parseDouble(m.group(1));
            seconds += n * switch (m.group(2)) {
                case "h" -> 3600;
                case "m" -> 60;
                case "s" -> 1;
                case "ms" -> 1e-3;
                case "us", "µs" -> 1e-6;
                default -> 1e-9;
            };
            end = m.end();
        }
        if (end == s.length() && end > 0) return Duration.ofNanos((long) (seconds * 1e9));
        try {
            Duration d = Duration.between(OffsetDateTime.now(), OffsetDateTime.parse(v.trim()));
            return d.isNegative() ? Duration.ZERO : d;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
