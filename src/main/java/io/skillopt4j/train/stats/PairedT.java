package io.skillopt4j.train.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Stateless. The honest gate's paired test: a Student-t bound on the mean difference from {@code diffs[i][r]}, as a
 * small split's bootstrap tail is too thin. With every item evaluated twice the noise is the pooled spread of repeats
 * (df = pairs − items), else the classic paired t over items (df = items − 1).
 */
public final class PairedT {
    /** Immutable. A paired test's interval of the mean difference, its one-sided p-value and the decision. */
    public record Test(Interval interval, double pValue, boolean accepted) {}

    private PairedT() {}

    /** The test at one-sided {@code confidence}: accepted when the lower bound is above 0; too little data rejects. */
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
