package io.skillopt4j.train.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Stateless. The paired test of the honest validation gate: a Student-t bound on the mean difference candidate −
 * reference over the validation items, from {@code diffs[i][r]} (item i, repeat r; same items and repeats on both
 * sides). A small split has too few items for a resampling bound: with 10 items the bootstrap's lower tail is too
 * thin and a neutral edit clears it far more often than the nominal rate; the t bound widens by the small sample's
 * own quantile instead. Two forms, by what the data can estimate:
 * <ul>
 *   <li><b>every item evaluated at least twice</b>: the items are held fixed and the target's noise is what is
 *   measured, as the spread of each item's repeats around its own mean, pooled over the items (df = all pairs −
 *   items). The test then asks whether the candidate is better on these items beyond the target's noise, so a rule
 *   that fixes 2 of 10 items is found once there are repeats enough; the items themselves are not resampled (a score
 *   interval over items says how far a split of this size generalizes).</li>
 *   <li><b>one evaluation of some item</b>: the item means are the only measure of noise there is; the bound is the
 *   classic paired t over items (df = items − 1).</li>
 * </ul>
 * Differences that are all 0 — the same skill — give [0, 0], p = 1 and a reject. No randomness is involved, so a
 * decision is reproducible from the rows alone.
 *
 * <pre>{@code
 * PairedT.Test t = PairedT.test(diffs, 0.95);   // diffs[i][r] = candidate − current on item i, repeat r
 * if (t.accepted()) ...                         // the one-sided 95 % lower bound of the mean gain is above 0
 * }</pre>
 */
public final class PairedT {
    /** Immutable. A paired test's interval of the mean difference, its one-sided p-value and the decision. */
    public record Test(Interval interval, double pValue, boolean accepted) {}

    private PairedT() {}

    /**
     * The test at one-sided {@code confidence}: accepted when the lower bound of the mean difference is above 0. The
     * interval's bounds are each one-sided at {@code confidence}; the p-value is P(T ≥ t) under no difference. Items
     * with no value are left out; an interval needs one item with repeats or two items, else it is unknown (reject).
     */
    public static Test test(double[][] diffs, double confidence) {
        double[][] r = PairedBootstrap.nonEmpty(diffs);
        int n = r.length, total = 0, minK = Integer.MAX_VALUE, maxK = 0;
        for (double[] item : r) { total += item.length; minK = Math.min(minK, item.length); maxK = Math.max(maxK, item.length); }
        boolean fixedItems = n > 0 && minK >= 2;
        int df = fixedItems ? total - n : n - 1;
        if (n == 0 || df < 1) return new Test(Interval.none(confidence), 1.0, false);
        double mean = PairedBootstrap.mean(r);
        double se = fixedItems ? noiseError(r, df) : itemError(r, mean);
        if (se <= 1e-12) { // no spread at all: the mean difference is the whole story (a target without noise)
            boolean gain = mean > 1e-12;
            return new Test(new Interval(mean, mean, mean, confidence, n, maxK), gain ? 0.0 : 1.0, gain);
        }
        TDistribution t = new TDistribution(null, df);
        double q = t.inverseCumulativeProbability(confidence);
        Interval ci = new Interval(mean, mean - q * se, mean + q * se, confidence, n, maxK);
        double p = 1 - t.cumulativeProbability(mean / se);
        return new Test(ci, Math.max(0, Math.min(1, p)), ci.above(0));
    }

    /** The standard error of the mean of item means from the pooled spread of repeats within items. */
    private static double noiseError(double[][] rows, int df) {
        double ss = 0;
        for (double[] item : rows) {
            double m = PairedBootstrap.itemMean(item);
            for (double v : item) ss += (v - m) * (v - m);
        }
        double within = ss / df, var = 0; // the variance of one difference; an item mean of k of them has within / k
        for (double[] item : rows) var += within / item.length;
        return Math.sqrt(var) / rows.length;
    }

    /** The standard error of the mean of item means from their spread over items. */
    private static double itemError(double[][] rows, double mean) {
        double ss = 0;
        for (double[] item : rows) {
            double d = PairedBootstrap.itemMean(item) - mean;
            ss += d * d;
        }
        return Math.sqrt(ss / (rows.length - 1) / rows.length);
    }
}
