package io.skillopt4j.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Stateless. The project's one rule for printing numbers: {@code printf}'s fixed formats for log lines and file
 * names, and for frames, footers and headlines at most {@link #MAX} decimals, no binary noise
 * ({@code 0.7300000000000002} prints {@code 0.73}) and never fewer decimals than the value needs ({@code 0.975}
 * stays {@code 0.975}). Frames add the per-column alignment ({@code frames.ColumnDecimals}).
 */
public final class Decimals {
    /** Most decimals {@link #shortest} shows. Four keeps 2/3 readable ({@code 0.6667}) and prices to a hundredth of a cent. */
    public static final int MAX = 4;

    private Decimals() {}

    /** Returns {@code d} with exactly {@code places} digits after the point, as {@code %.<places>f} prints it. */
    public static String fixed(double d, int places) {
        return String.format(Locale.ROOT, "%." + places + "f", d);
    }

    /** Returns {@code n} zero-padded to {@code width} digits, as {@code %0<width>d} prints it. */
    public static String padded(int n, int width) {
        return String.format(Locale.ROOT, "%0" + width + "d", n);
    }

    /**
     * Returns {@code v} with as many decimals as it needs once rounded half-up to {@link #MAX} (at least one):
     * {@code 0.7300000000000002} prints {@code 0.73}, {@code 0.975} stays {@code 0.975}; NaN/∞ as Java prints them.
     */
    public static String shortest(double v) { return halfUp(v, needed(v)); }

    /** Returns the decimals {@code v} needs once rounded to {@link #MAX}: 1 for 0.5 or 2.0, 3 for 0.975. */
    public static int needed(double v) {
        if (!Double.isFinite(v)) return 1;
        int scale = BigDecimal.valueOf(v).setScale(MAX, RoundingMode.HALF_UP).stripTrailingZeros().scale();
        return Math.max(1, Math.min(MAX, scale));
    }

    /** Returns {@code v} with exactly {@code decimals} decimals (half-up, no negative zero), or NaN/∞ as Java prints them. */
    public static String halfUp(double v, int decimals) {
        if (!Double.isFinite(v)) return String.valueOf(v);
        return BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }
}
