package io.skillopt4j.sim;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread-safe. The target's answer noise, as the shared fake LLM's {@code --noise P --noise-seed S}: each answer is
 * flipped with probability P, drawn from S, the request and how often it was seen. So a run repeats exactly with the
 * same S, while asking the same request again is a fresh draw, as with a sampling model.
 */
public final class TargetNoise {
    private final double p;
    private final long seed;
    private final ConcurrentHashMap<String, Integer> seen = new ConcurrentHashMap<>();

    private TargetNoise(double p, long seed) {
        if (!(p >= 0 && p <= 1)) throw new IllegalArgumentException("noise must be a probability in [0, 1]: " + p);
        this.p = p;
        this.seed = seed;
    }

    public static TargetNoise none() { return new TargetNoise(0, 0); }

    /** Flips each answer with probability {@code p} (in [0, 1]), drawn from {@code seed}. */
    public static TargetNoise of(double p, long seed) { return new TargetNoise(p, seed); }

    /** Returns true when this request's answer is flipped (counts the request as seen). */
    boolean flips(String system, String user) {
        if (p == 0) return false;
        String key = system + "\n\u0000\n" + user;
        int n = seen.merge(key, 1, Integer::sum) - 1;
        return SimText.rng(seed, "noise", n + "\u0000" + key).nextDouble() < p;
    }

    @Override public String toString() { return p == 0 ? "none" : "p=" + p + " seed=" + seed; }
}
