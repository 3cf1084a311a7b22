package io.skillopt4j.backend.internal;

import io.skillopt4j.backend.Backoff;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The client-side limiter against a loopback provider that enforces a token bucket (as the shared fake LLM and
 * OpenAI do) or a concurrency cap: calls are paced instead of refused, whether the limits come from the provider's
 * headers or from the configuration; and the reset-header formats of OpenAI and Anthropic.
 */
class RateLimitsTest {
    static final String OK = "{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"usage\":{\"total_tokens\":100}}";
    MockWebServer server;

    @BeforeEach void start() throws IOException { server = new MockWebServer(); }

    @AfterEach void stop() throws IOException { server.shutdown(); }

    /** A provider's request bucket: {@code rpm} per minute, {@code burst} deep; 429 with retry-after when empty. */
    static final class Bucket extends Dispatcher {
        final double rpm, burst;
        final boolean headers;
        final String style;
        double tokens;
        long refilled = System.nanoTime();
        final AtomicInteger rejected = new AtomicInteger(), served = new AtomicInteger();

        Bucket(double rpm, double burst, boolean headers, String style) {
            this.rpm = rpm;
            this.burst = burst;
            this.tokens = burst;
            this.headers = headers;
            this.style = style;
        }

        @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            boolean ok;
            double wait;
            MockResponse r = new MockResponse();
            synchronized (this) {
                long now = System.nanoTime();
                tokens = Math.min(burst, tokens + (now - refilled) / 1e9 * rpm / 60);
                refilled = now;
                ok = tokens >= 1;
                if (ok) tokens -= 1;
                wait = ok ? 0 : (1 - tokens) * 60 / rpm;
                double reset = (burst - tokens) * 60 / rpm;
                if (headers && style.equals("openai")) {
                    r.setHeader("x-ratelimit-limit-requests", String.valueOf((int) rpm));
                    r.setHeader("x-ratelimit-remaining-requests", String.valueOf((int) tokens));
                    r.setHeader("x-ratelimit-reset-requests", String.format(java.util.Locale.ROOT, "%.3fs", reset));
                } else if (headers) {
                    r.setHeader("anthropic-ratelimit-requests-limit", String.valueOf((int) rpm));
                    r.setHeader("anthropic-ratelimit-requests-remaining", String.valueOf((int) tokens));
                    r.setHeader("anthropic-ratelimit-requests-reset", OffsetDateTime.now().plusNanos((long) (reset * 1e9)).toString());
                }
            }
            if (!ok) {
                rejected.incrementAndGet();
                return r.setResponseCode(429).setHeader("retry-after", String.valueOf((long) Math.ceil(wait)))
                        .setHeader("retry-after-ms", String.valueOf(Math.max(1, (long) (wait * 1000))))
                        .setBody("{\"error\":{\"message\":\"Rate limit reached\"}}");
            }
            Thread.sleep(20);
            served.incrementAndGet();
            return r.setHeader("Content-Type", "application/json").setBody(OK);
        }
    }

    /** Makes {@code n} calls from {@code threads} threads, each with its own client variant of the shared one. */
    private void calls(int threads, int n, RateLimits.Configured limits) throws InterruptedException {
        calls(threads, n, limits, 10);
    }

    /** As {@link #calls(int, int, RateLimits.Configured)}, each call given up after {@code attempts} refusals. */
    private void calls(int threads, int n, RateLimits.Configured limits, int attempts) throws InterruptedException {
        OkHttpClient client = Http.client(Duration.ofSeconds(10));
        Http.Policy p = new Http.Policy("openai_compatible", attempts, Backoff.ofMillis(10, 2000), null, Http.FaultSink.NONE, limits, null);
        String url = server.url("/v1/chat/completions").toString();
        AtomicInteger left = new AtomicInteger(n), failed = new AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<RuntimeException> first = new java.util.concurrent.atomic.AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            ts.add(new Thread(() -> {
                while (left.getAndDecrement() > 0) {
                    try {
                        HttpCall.postJson(client, url, Map.of(), Map.of("q", 1), p);
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        first.compareAndSet(null, e);
                    }
                }
            }));
        }
        ts.forEach(Thread::start);
        for (Thread t : ts) t.join(60_000);
        assertEquals(0, failed.get(), () -> "every call answered; the first failure: " + first.get());
    }

    @Test void openAiHeadersPaceEightThreadsUnderABucketWithFewRejections() throws Exception {
        Bucket b = new Bucket(1200, 4, true, "openai");
        server.setDispatcher(b);
        server.start();
        calls(8, 60, RateLimits.Configured.NONE);
        assertEquals(60, b.served.get());
        // before the first reply the limit is unknown: at most the first wave (8 at once, 4 in the bucket) is refused
        assertTrue(b.rejected.get() <= 6, "rejected " + b.rejected.get() + " of " + (60 + b.rejected.get()));
    }

    @Test void anthropicHeadersPaceToo() throws Exception {
        Bucket b = new Bucket(1200, 4, true, "anthropic");
        server.setDispatcher(b);
        server.start();
        calls(8, 60, RateLimits.Configured.NONE);
        assertEquals(60, b.served.get());
        assertTrue(b.rejected.get() <= 6, "rejected " + b.rejected.get());
    }

    @Test void aConfiguredRateStandsInForAProviderWithoutHeaders() throws Exception {
        Bucket b = new Bucket(1200, 2, false, "openai"); // a bucket of two absorbs the jitter of arrival times
        server.setDispatcher(b);
        server.start();
        calls(8, 40, new RateLimits.Configured(1200, 0));
        assertEquals(40, b.served.get());
        assertTrue(b.rejected.get() <= 2, "a configured rate at the provider's: hardly a refusal, rejected " + b.rejected.get());
        // and without it the same provider (another endpoint: limits are per endpoint) refuses many first tries
        server.shutdown();
        server = new MockWebServer();
        Bucket c = new Bucket(1200, 2, false, "openai");
        server.setDispatcher(c);
        server.start();
        // unpaced, eight threads race for a bucket of two: one of them may lose ten times in a row, which is what
        // this half shows, so its calls get more attempts than the paced half needs
        calls(8, 40, RateLimits.Configured.NONE, 100);
        assertTrue(c.rejected.get() > 10, "unpaced: rejected " + c.rejected.get());
    }

    @Test void aConcurrencyCapLowersTheCallsInFlight() throws Exception {
        AtomicInteger inFlight = new AtomicInteger(), rejected = new AtomicInteger();
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
                if (inFlight.incrementAndGet() > 2) {
                    inFlight.decrementAndGet();
                    rejected.incrementAndGet();
                    return new MockResponse().setResponseCode(429).setHeader("retry-after-ms", "20").setBody("{}");
                }
                Thread.sleep(30);
                inFlight.decrementAndGet();
                return new MockResponse().setHeader("Content-Type", "application/json").setBody(OK);
            }
        });
        server.start();
        calls(6, 60, RateLimits.Configured.NONE);
        RateLimits.Limiter l = limiterOf(server.url("/v1/chat/completions"));
        assertTrue(l.maxInFlight() < 6, "lowered from six threads' worth: " + l.maxInFlight());
        assertTrue(rejected.get() < 60, "fewer refusals than calls once the cap is learnt: " + rejected.get());
    }

    private static RateLimits.Limiter limiterOf(okhttp3.HttpUrl url) {
        for (okhttp3.Interceptor i : Http.shared().interceptors())
            if (i instanceof RateLimits.Pace p) return p.limits().limiter(url);
        throw new AssertionError("the shared client has no rate-limit interceptor");
    }

    @Test void readsOpenAiAndAnthropicResetFormats() {
        assertEquals(Duration.ofSeconds(1), RateLimits.resetIn("1s"));
        assertEquals(Duration.ofSeconds(360), RateLimits.resetIn("6m0s"));
        assertEquals(Duration.ofMillis(20), RateLimits.resetIn("20ms"));
        assertEquals(Duration.ofMillis(450), RateLimits.resetIn("0.450s"));
        assertEquals(Duration.ofSeconds(3723), RateLimits.resetIn("1h2m3s"));
        assertEquals(Duration.ofSeconds(2), RateLimits.resetIn("2"));
        Duration d = RateLimits.resetIn(OffsetDateTime.now().plusSeconds(30).toString());
        assertTrue(d.compareTo(Duration.ofSeconds(28)) > 0 && d.compareTo(Duration.ofSeconds(31)) < 0, String.valueOf(d));
        assertEquals(Duration.ZERO, RateLimits.resetIn(OffsetDateTime.now().minusSeconds(30).toString()), "a past instant: now");
        assertNull(RateLimits.resetIn("soon"));
    }
}
