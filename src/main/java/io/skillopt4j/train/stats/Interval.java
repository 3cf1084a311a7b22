package io.skillopt4j.train.stats;

import java.util.List;
import java.util.Locale;

/** Immutable. A score or gain with its interval, each bound one-sided at {@code confidence}; NaN over no items. */
public record Interval(double estimate, double low, double high, double confidence, int items, int repeats) {
    /** The interval of no data: NaN estimate and bounds. */
    public static Interval none(double confidence) { return new Interval(Double.NaN, Double.NaN, Double.NaN, confidence, 0, 0); }

    /** True when it rests on at least one item. */
    public boolean known() { return items > 0 && !Double.isNaN(low) && !Double.isNaN(high); }

    public boolean above(double x) { return known() && low > x; }


    /** True when {@code x} lies strictly inside: lower bound at or below it, upper bound above it. */
    public boolean straddles(double x) { return known() && low <= x && high > x; }


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
