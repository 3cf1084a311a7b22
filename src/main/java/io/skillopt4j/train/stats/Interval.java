package io.skillopt4j.train.stats;

import java.util.List;
import java.util.Locale;

/**
 * Immutable. A score or a difference of scores with its bootstrap interval: {@code low} and {@code high} are the
 * {@code (1 - confidence)} and {@code confidence} quantiles of the resampled means, so each bound on its own is a
 * one-sided bound at {@code confidence} and together they form a two-sided interval at {@code 2·confidence − 1}.
 * {@code items} is how many validation or test items the interval rests on, {@code repeats} the largest number of
 * evaluations of one item. An interval over no items has NaN bounds ({@link #known()} is false).
 *
 * <pre>{@code
 * Interval ci = Bootstrap.seeded(7).score(rows, 0.975); // a 95 % two-sided interval of a mean score
 * ci.format(3);                                         // "0.700 [0.500, 0.900]"
 * }</pre>
 */
public record Interval(double estimate, double low, double high, double confidence, int items, int repeats) {
    /** The interval of no data: NaN estimate and bounds. */
    public static Interval none(double confidence) { return new Interval(Double.NaN, Double.NaN, Double.NaN, confidence, 0, 0); }

    /** True when it rests on at least one item. */
    public boolean known() { return items > 0 && !Double.isNaN(low) && !Double.isNaN(high); }

    /** True when the lower bound is above {@code x}. */
    public boolean above(double x) { return known() && low > x; }

    /** True when the upper bound is at or below {@code x}. */
    public boolean atMost(double x) { return known() && high <= x; }

    /** True when {@code x} lies strictly inside: lower bound at or below it, upper bound above it. */
    public boolean straddles(double x) { return known() && low <= x && high > x; }

    /** Half the width: the "±" of the estimate (NaN when unknown). */
    public double halfWidth() { return (high - low) / 2; }

    /** The bounds as a two-element list, rounded to 6 decimals (for JSON), or null when unknown. */
    public List<Double> bounds() { return known() ? List.of(round6(low), round6(high)) : null; }

    /** "0.700 [0.500, 0.900]", or the estimate alone when unknown ("-" for no estimate either). */
    public String format(int decimals) {
        if (Double.isNaN(estimate)) return "-";
        String f = "%." + decimals + "f";
        if (!known()) return String.format(Locale.ROOT, f, estimate);
        return String.format(Locale.ROOT, f + " [" + f + ", " + f + "]", estimate, low, high);
    }

    @Override public String toString() { return format(3); }

    static double round6(double v) { return Math.rint(v * 1e6) / 1e6; }
}
