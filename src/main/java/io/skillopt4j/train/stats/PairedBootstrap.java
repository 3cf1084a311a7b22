package io.skillopt4j.train.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Immutable. Seeded bootstrap intervals of mean scores over evaluation items, and the paired test of the honest
 * validation gate. Rows are one per item, each holding that item's values over its repeats ({@code rows[i][r]}); a
 * resample draws items with replacement and takes each drawn item's mean over its repeats, so an interval counts both
 * which items the split holds and how a stochastic target answers them (an item mean's spread already holds the
 * repeats' noise; resampling the repeats too would count it twice and widen the interval past its nominal level).
 * Resampled means are spread by {@code sqrt(n / (n − 1))} around the observed mean (the "expanded" percentile
 * bootstrap): the plain percentile interval is too narrow for the 10 to 30 items a validation split has.
 * The same seed gives the same interval; no state is kept between calls.
 *
 * <pre>{@code
 * PairedBootstrap b = PairedBootstrap.seeded(42);
 * PairedBootstrap.Test t = b.test(diffs, 0.9);     // diffs[i][r] = candidate − current on item i, repeat r
 * if (t.accepted()) ...                            // the one-sided 90 % lower bound of the mean gain is above 0
 * }</pre>
 */
public final class PairedBootstrap {
    /** Resamples per interval: enough that a bound moves by well under a hundredth between seeds. */
    public static final int RESAMPLES = 4000;

    /** Immutable. A paired test's interval of the mean difference, its one-sided p-value and the decision. */
    public record Test(Interval interval, double pValue, boolean accepted) {}

    private final long seed;
    private final int resamples;

    private PairedBootstrap(long seed, int resamples) {
        if (resamples < 100) throw new IllegalArgumentException("resamples must be >= 100, was " + resamples);
        this.seed = seed;
        this.resamples = resamples;
    }

    /** A bootstrap of {@link #RESAMPLES} resamples drawn from {@code seed}. */
    public static PairedBootstrap seeded(long seed) { return new PairedBootstrap(seed, RESAMPLES); }

    /** As {@link #seeded(long)} with {@code resamples} resamples (at least 100). */
    public static PairedBootstrap seeded(long seed, int resamples) { return new PairedBootstrap(seed, resamples); }

    /** A seed for one decision of a run: the run's seed mixed with a label ("gate") and a number (the step). */
    public static long seedFor(long runSeed, String label, long n) {
        long h = runSeed * 0x9E3779B97F4A7C15L + n;
        for (int i = 0; i < label.length(); i++) h = h * 31 + label.charAt(i);
        return new SplittableRandom(h).nextLong();
    }

    /**
     * The interval of the mean of {@code rows} (item × repeat); each bound one-sided at {@code confidence} (0.975 gives
     * a two-sided 95 % interval). Items with no value are left out.
     */
    public Interval score(double[][] rows, double confidence) {
        double[][] r = nonEmpty(rows);
        if (r.length == 0) return Interval.none(confidence);
        double[] means = resampledMeans(r);
        return new Interval(mean(r), quantile(means, 1 - confidence), quantile(means, confidence), confidence, r.length, maxRepeats(r));
    }

    /**
     * The paired test: {@code diffs[i][r]} is candidate − current on item i in repeat r (same items, same repeats). With
     * one repeat the items are resampled (the spread over items is the only measure of noise there is); with two or
     * more on every item the items are held fixed and only the target's noise is resampled: the test then asks whether
     * the candidate is better on these items beyond the target's noise, so a rule that fixes 2 of 10 items of a target
     * without noise is accepted (resampling the items would miss both fixed ones in 0.8^10 ≈ 11 % of resamples). The
     * candidate is accepted when the one-sided lower bound at {@code confidence} of the mean difference is above 0; the
     * p-value is the share of resampled means at or below 0 (with the usual +1 so it is never 0). Differences that are
     * all 0 — the same skill — give an interval of [0, 0], p = 1 and a reject, whatever the seed.
     */
    public Test test(double[][] diffs, double confidence) {
        double[][] r = nonEmpty(diffs);
        if (r.length == 0) return new Test(Interval.none(confidence), 1.0, false);
        double[] means = minRepeats(r) >= 2 ? noiseMeans(r) : resampledMeans(r);
        int atOrBelow = 0;
        for (double m : means) if (m <= 0) atOrBelow++;
        double p = (atOrBelow + 1.0) / (means.length + 1.0);
        Interval ci = new Interval(mean(r), quantile(means, 1 - confidence), quantile(means, confidence), confidence, r.length, maxRepeats(r));
        return new Test(ci, Math.min(1.0, p), ci.above(0));
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

    /**
     * Sorted {@code means}, each held inside the range of the values: the expansion may carry a resampled mean past
     * the smallest or largest value, where no mean of these values can lie (a gain above 1 on scores in [0, 1]).
     */
    private static double[] clamped(double[] means, double[][] rows) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (double[] item : rows) for (double v : item) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
        for (int i = 0; i < means.length; i++) means[i] = Math.max(lo, Math.min(hi, means[i]));
        Arrays.sort(means);
        return means;
    }

    /**
     * Sorted resampled means with the items held fixed: each item keeps its own mean and only the target's noise is
     * drawn again, as residuals (a value minus its item's mean) from the pool of every item's residuals, spread by
     * {@code sqrt(N / (N − n))} for the n item means they were taken around. Pooling lets items whose few repeats
     * happened to agree borrow the noise the others show; a target without noise gives no spread at all.
     */
    private double[] noiseMeans(double[][] rows) {
        int n = rows.length, total = 0;
        for (double[] item : rows) total += item.length;
        double[] pool = new double[total];
        int j = 0;
        for (double[] item : rows) {
            double m = itemMean(item);
            for (double v : item) pool[j++] = v - m;
        }
        double expand = Math.sqrt(total / (double) (total - n));
        double observed = mean(rows);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] out = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            double sum = 0;
            for (double[] item : rows) {
                double s = 0;
                for (int r = 0; r < item.length; r++) s += pool[rnd.nextInt(total)];
                sum += s / item.length;
            }
            out[b] = observed + expand * sum / n;
        }
        return clamped(out, rows);
    }

    private static int minRepeats(double[][] rows) {
        int k = Integer.MAX_VALUE;
        for (double[] item : rows) k = Math.min(k, item.length);
        return k;
    }

    /** Mean over items of each item's mean over its repeats. */
    static double mean(double[][] rows) {
        double sum = 0;
        for (double[] item : rows) sum += itemMean(item);
        return sum / rows.length;
    }

    private static double itemMean(double[] item) {
        double s = 0;
        for (double v : item) s += v;
        return s / item.length;
    }

    private static int maxRepeats(double[][] rows) {
        int k = 0;
        for (double[] item : rows) k = Math.max(k, item.length);
        return k;
    }

    private static double[][] nonEmpty(double[][] rows) {
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
