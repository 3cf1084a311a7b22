package io.skillopt4j.train.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Immutable. Seeded bootstrap intervals of mean scores over items ({@code rows[i][r]}: item i, repeat r), spread by
 * {@code sqrt(n / (n − 1))}: the plain percentile interval is too narrow for a validation split's few items.
 */
public record PairedBootstrap(long seed, int resamples) {
    /** Resamples per interval: a bound moves by well under a hundredth between seeds. */
    public static final int RESAMPLES = 4000;

    public PairedBootstrap {
        if (resamples < 100) throw new IllegalArgumentException("resamples must be >= 100, was " + resamples);
    }

    /** A bootstrap of {@link #RESAMPLES} resamples drawn from {@code seed}. */
    public static PairedBootstrap seeded(long seed) { return new PairedBootstrap(seed, RESAMPLES); }

    /** As {@link #seeded(long)} with {@code resamples} resamples (at least 100). */
    public static PairedBootstrap seeded(long seed, int resamples) { return new PairedBootstrap(seed, resamples); }

    /** The interval of the mean of {@code rows}, each bound one-sided at {@code confidence}; empty items left out. */
    public Interval score(double[][] rows, double confidence) {
        double[][] r = nonEmpty(rows);
        if (r.length == 0) return Interval.none(confidence);
        double[] means = resampledMeans(r);
        return new Interval(mean(r), quantile(means, 1 - confidence), quantile(means, confidence), confidence, r.length, maxRepeats(r));
    }

    /** Sorted resampled means, spread by sqrt(n / (n − 1)) around the observed mean. */
    private double[] resampledMeans(double[][] rows) {
        int n = rows.length;
        double observed = mean(rows);
        double expand = n > 1 ? Math.sqrt(n / (n - 1.0)) : 1.0;
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] itemMeans = new double[n];
        for (int i = 0; i < n; i++) itemMeans[i] = itemMean(rows[i]);
        double[] out = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            double sum = 0;
            for (int i = 0; i < n; i++) sum += itemMeans[rnd.nextInt(n)];
            double m = sum / n;
            out[b] = observed + (m - observed) * expand;
        }
        return clamped(out, rows);
    }

    /** Sorted {@code means}, held inside the values' range, which the expansion may overshoot. */
    private static double[] clamped(double[] means, double[][] rows) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (double[] item : rows) for (double v : item) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        for (int i = 0; i < means.length; i++) means[i] = Math.max(lo, Math.min(hi, means[i]));
        Arrays.sort(means);
        return means;
    }

    /** Mean over items of each item's mean over its repeats. */
    static double mean(double[][] rows) {
        double sum = 0;
        for (double[] item : rows) sum += itemMean(item);
        return sum / rows.length;
    }

    static double itemMean(double[] item) {
        double s = 0;
        for (double v : item) s += v;
        return s / item.length;
    }

    private static int maxRepeats(double[][] rows) {
        return Arrays.stream(rows).mapToInt(r -> r.length).max().orElse(0);
    }

    /** The items that hold at least one value. */
    static double[][] nonEmpty(double[][] rows) {
        if (rows == null) return new double[0][];
        return Arrays.stream(rows).filter(r -> r != null && r.length > 0).toArray(double[][]::new);
    }

    /** Linear interpolation between order statistics of sorted {@code v} (type 7). */
    static double quantile(double[] v, double q) {
        double pos = Math.max(0, Math.min(1, q)) * (v.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(v.length - 1, lo + 1);
        return v[lo] + (pos - lo) * (v[hi] - v[lo]);
    }
}
