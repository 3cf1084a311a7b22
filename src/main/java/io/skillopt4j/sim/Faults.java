package io.skillopt4j.sim;

import java.time.Duration;
import java.util.Locale;

/**
 * Immutable. The simulator's fault rates, each the probability that one HTTP attempt fails that way: 429 with
 * {@code Retry-After}, 500, a timeout (held for {@code timeoutHold}), a non-JSON 200, a truncated body, a dropped
 * connection ({@code disconnect}) or a silent close after the reply ({@code close}: the pooled connection goes
 * stale). Draws are seeded by the request body and attempt number, so retries see a repeatable sequence.
 */
public record Faults(double rate429, double rate500, double rateTimeout, double rateMalformed, double rateTruncated,
                     double rateDisconnect, double rateClose, int retryAfterSeconds, Duration timeoutHold) {
    /** The names {@link #parse} accepts, in {@link #pick} order. */
    public static final String NAMES = "429, 500, timeout, malformed, truncated, disconnect, close, retry_after (seconds)";

    public Faults {
        for (double r : new double[] {rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose})
            if (!(r >= 0 && r <= 1)) throw new IllegalArgumentException("fault rates must be in [0,1]: " + r);
        if (total(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose) > 1 + 1e-9)
            throw new IllegalArgumentException("fault rates must add up to at most 1");
        if (retryAfterSeconds < 0) throw new IllegalArgumentException("retryAfterSeconds must be >= 0");
        timeoutHold = timeoutHold == null ? Duration.ofSeconds(30) : timeoutHold;
    }

    /** Without disconnects or silent closes. */
    public Faults(double rate429, double rate500, double rateTimeout, double rateMalformed, double rateTruncated,
                  int retryAfterSeconds, Duration timeoutHold) {
        this(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, 0, 0, retryAfterSeconds, timeoutHold);
    }

    private static double total(double... rates) {
        double t = 0;
        for (double r : rates) t += r;
        return t;
    }

    public static Faults none() { return new Faults(0, 0, 0, 0, 0, 0, 0, 1, Duration.ofSeconds(30)); }

    /** Parses e.g. {@code 429=0.1,500=0.05,retry_after=2}; blank or {@code none} is none; bad input throws naming the part. */
    public static Faults parse(String spec) {
        Faults f = none();
        if (spec == null || spec.isBlank() || spec.trim().equalsIgnoreCase("none")) return f;
        for (String part : spec.split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("'" + p + "' is not NAME=RATE (names: " + NAMES + ")");
            String name = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            double v;
            try {
                v = Double.parseDouble(p.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + p + "': the value is not a number");
            }
            f = switch (name) {
                case "429" -> f.with429(v);
                case "500" -> f.with500(v);
                case "timeout" -> f.withTimeouts(v, f.timeoutHold);
                case "malformed" -> f.withMalformed(v);
                case "truncated" -> f.withTruncated(v);
                case "disconnect" -> f.withDisconnects(v);
                case "close" -> f.withCloses(v);
                case "retry_after" -> f.withRetryAfter((int) v);
                default -> throw new IllegalArgumentException("unknown fault '" + name + "' (names: " + NAMES + ")");
            };
        }
        return f;
    }

    public Faults with429(double rate) { return new Faults(rate, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose, retryAfterSeconds, timeoutHold); }
    public Faults with500(double rate) { return new Faults(rate429, rate, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose, retryAfterSeconds, timeoutHold); }
    public Faults withTimeouts(double rate, Duration hold) { return new Faults(rate429, rate500, rate, rateMalformed, rateTruncated, rateDisconnect, rateClose, retryAfterSeconds, hold); }
    public Faults withMalformed(double rate) { return new Faults(rate429, rate500, rateTimeout, rate, rateTruncated, rateDisconnect, rateClose, retryAfterSeconds, timeoutHold); }
    public Faults withTruncated(double rate) { return new Faults(rate429, rate500, rateTimeout, rateMalformed, rate, rateDisconnect, rateClose, retryAfterSeconds, timeoutHold); }
    public Faults withDisconnects(double rate) { return new Faults(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rate, rateClose, retryAfterSeconds, timeoutHold); }
    public Faults withCloses(double rate) { return new Faults(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rate, retryAfterSeconds, timeoutHold); }
    public Faults withRetryAfter(int seconds) { return new Faults(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose, seconds, timeoutHold); }

    public enum Kind { NONE, RATE_LIMIT, SERVER_ERROR, TIMEOUT, MALFORMED, TRUNCATED, DISCONNECT, CLOSE }

    /** Maps a uniform draw in [0,1) to a fault kind by cumulative rates. */
    Kind pick(double u) {
        double c = rate429;
        if (u < c) return Kind.RATE_LIMIT;
        if (u < (c += rate500)) return Kind.SERVER_ERROR;
        if (u < (c += rateTimeout)) return Kind.TIMEOUT;
        if (u < (c += rateMalformed)) return Kind.MALFORMED;
        if (u < (c += rateTruncated)) return Kind.TRUNCATED;
        if (u < (c += rateDisconnect)) return Kind.DISCONNECT;
        if (u < c + rateClose) return Kind.CLOSE;
        return Kind.NONE;
    }

    public boolean any() { return total(rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose) > 0; }

    /** Compact form, e.g. {@code 429=0.1,500=0.1,malformed=0.05} (the {@link #parse} syntax). */
    @Override public String toString() {
        if (!any()) return "none";
        StringBuilder b = new StringBuilder();
        String[] names = {"429", "500", "timeout", "malformed", "truncated", "disconnect", "close"};
        double[] rates = {rate429, rate500, rateTimeout, rateMalformed, rateTruncated, rateDisconnect, rateClose};
        for (int i = 0; i < names.length; i++) if (rates[i] > 0) b.append(b.length() == 0 ? "" : ",").append(names[i]).append('=').append(rates[i]);
        if (rate429 > 0) b.append(",retry_after=").append(retryAfterSeconds);
        return b.toString();
    }
}
