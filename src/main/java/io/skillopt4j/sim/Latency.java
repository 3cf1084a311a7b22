package io.skillopt4j.sim;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Immutable. How long the simulator waits before answering: fixed, uniform or log-normal, sampled from a seeded
 * stream so a run's delays repeat exactly.
 */
public sealed interface Latency {
    /** Returns a delay in milliseconds. */
    long sampleMillis(SplittableRandom r);

    Latency NONE = new Fixed(0);

    record Fixed(long millis) implements Latency {
        public Fixed { if (millis < 0) throw new IllegalArgumentException("latency must be >= 0 ms: " + millis); }
        @Override public long sampleMillis(SplittableRandom r) { return millis; }
        @Override public String toString() { return millis + "ms"; }
    }

    /** A delay drawn uniformly from [min, max]. */
    record Uniform(long min, long max) implements Latency {
        public Uniform { if (min < 0 || max < min) throw new IllegalArgumentException("latency range must be 0 <= min <= max: " + min + "-" + max); }
        @Override public long sampleMillis(SplittableRandom r) { return min == max ? min : min + r.nextLong(max - min + 1); }
        @Override public String toString() { return min + "-" + max + "ms"; }
    }

    /** A log-normal delay with the given median and sigma (heavy right tail, like real API latencies). */
    record LogNormal(double medianMillis, double sigma) implements Latency {
        public LogNormal { if (medianMillis < 0 || sigma < 0) throw new IllegalArgumentException("lognormal median and sigma must be >= 0"); }
        @Override public long sampleMillis(SplittableRandom r) {
            double u1 = Math.max(1e-12, r.nextDouble()), u2 = r.nextDouble();
            double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            return Math.round(medianMillis * Math.exp(sigma * z));
        }
        @Override public String toString() { return String.format(Locale.ROOT, "lognormal:%s:%s", medianMillis, sigma); }
    }

    /** Parses {@code N} (fixed ms), {@code A-B} (uniform ms) or {@code lognormal:MEDIAN:SIGMA}, else throws naming the forms. */
    static Latency parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace("ms", "");
        try {
            if (t.startsWith("lognormal:")) {
                String[] p = t.split(":");
                return new LogNormal(Double.parseDouble(p[1]), p.length > 2 ? Double.parseDouble(p[2]) : 0.5);
            }
            int dash = t.indexOf('-', 1);
            if (dash > 0) return new Uniform(Long.parseLong(t.substring(0, dash).trim()), Long.parseLong(t.substring(dash + 1).trim()));
            return new Fixed(Long.parseLong(t));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("latency '" + text + "' is not valid; allowed: N, A-B (milliseconds) or lognormal:MEDIAN:SIGMA");
        }
    }
}
