package io.skillopt4j.backend;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Immutable. Exponential backoff with jitter: attempt {@code a} (0-based) waits {@code min(base * 2^a, cap)} plus up
 * to {@code jitter} of that, unless the server sent {@code Retry-After} (honoured, but never beyond {@code cap}).
 */
public record Backoff(Duration base, Duration cap, double jitter) {
    /** Upstream-like default: 1 s doubling up to 30 s, 20% jitter. */
    public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 0.2);
    /** No waiting at all (tests). */
    public static final Backoff NONE = new Backoff(Duration.ZERO, Duration.ZERO, 0);

    public Backoff {
        base = base == null ? Duration.ZERO : base;
        cap = cap == null ? base : cap;
        if (jitter < 0 || jitter > 1) throw new IllegalArgumentException("jitter must be in [0, 1], got " + jitter);
    }

    /** With 20% jitter. */
    public static Backoff ofMillis(long baseMillis, long capMillis) {
        return new Backoff(Duration.ofMillis(baseMillis), Duration.ofMillis(capMillis), 0.2);
    }

    /** The wait before retry number {@code attempt + 1}; {@code retryAfter} (may be null) wins when given. */
    public Duration delay(int attempt, Duration retryAfter) {
        long capMs = cap.toMillis();
        if (retryAfter != null) return Duration.ofMillis(Math.min(Math.max(0, retryAfter.toMillis()), capMs));
        long raw = base.toMillis() << Math.min(attempt, 30);
        long ms = Math.min(raw < 0 ? Long.MAX_VALUE : raw, capMs);
        long extra = jitter == 0 || ms == 0 ? 0 : (long) (ms * jitter * ThreadLocalRandom.current().nextDouble());
        return Duration.ofMillis(ms + extra);
    }

    /** Sleeps for {@code d}; an interrupt is restored and surfaces as a retriable failure of the caller. */
    public static void sleep(Duration d) {
        if (d.isZero() || d.isNegative()) return;
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }
}
