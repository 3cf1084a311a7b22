package io.skillopt4j.sim;

import java.time.Duration;

/**
 * Immutable. Fault injection rates of the simulator, each the probability that one HTTP attempt fails that
 * way: 429 with {@code Retry-After}, 500, a timeout (the connection is held for {@code timeoutHold}, past
 * the client's timeout), a 200 whose body is not JSON, or a body cut off mid-stream. Decisions are seeded by
 * the request body and its attempt number, so retries of the same request see a repeatable sequence.
 */
public record Faults(double rate429, double rate500, double rateTimeout, double rateMalformed, double rateTruncated,
                     int retryAfterSeconds, Duration timeoutHold) {
    public Faults {
        for (double r : new double[] {rate429, rate500, rateTimeout, rateMalformed, rateTruncated})
            if (!(r >= 0 && r <= 1)) throw new IllegalArgumentException("fault rates must be in [0,1]: " + r);
        if (rate429 + rate500 + rateTimeout + rateMalformed + rateTruncated > 1)
            throw new IllegalArgumentException("fault rates must add up to at most 1");
        if (retryAfterSeconds < 0) throw new IllegalArgumentException("retryAfterSeconds must be >= 0");
        timeoutHold = timeoutHold == null ? Duration.ofSeconds(30) : timeoutHold;
    }

    /** No faults. */
    public static Faults none() { return new Faults(0, 0, 0, 0, 0, 1, Duration.ofSeconds(30)); }

    public Faults with429(double rate) { return new Faults(rate, rate500, rateTimeout, rateMalformed, rateTruncated, retryAfterSeconds, timeoutHold); }
    public Faults with500(double rate) { return new Faults(rate429, rate, rateTimeout, rateMalformed, rateTruncated, retryAfterSeconds, timeoutHold); }
    public Faults withTimeouts(double rate, Duration hold) { return new Faults(rate429, rate500, rate, rateMalformed, rateTruncated, retryAfterSeconds, hold); }
    public Faults withMalformed(double rate) { return new Faults(rate429, rate500, rateTimeout, rate, rateTruncated, retryAfterSeconds, timeoutHold); }
    public Faults withTruncated(double rate) { return new Faults(rate429, rate500, rateTimeout, rateMalformed, rate, retryAfterSeconds, timeoutHold); }
    public Faults withRetryAfter(int seconds) { return new Faults(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, seconds, timeoutHold); }

    /** The kinds of injected failure. */
    public enum Kind { NONE, RATE_LIMIT, SERVER_ERROR, TIMEOUT, MALFORMED, TRUNCATED }

    /** Maps a uniform draw in [0,1) to a fault kind by cumulative rates. */
    Kind pick(double u) {
        double c = rate429;
        if (u < c) return Kind.RATE_LIMIT;
        if (u < (c += rate500)) return Kind.SERVER_ERROR;
        if (u < (c += rateTimeout)) return Kind.TIMEOUT;
        if (u < (c += rateMalformed)) return Kind.MALFORMED;
        if (u < c + rateTruncated) return Kind.TRUNCATED;
        return Kind.NONE;
    }

    public boolean any() { return rate429 + rate500 + rateTimeout + rateMalformed + rateTruncated > 0; }
}
