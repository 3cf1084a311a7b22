package io.skillopt4j.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Stateless. The project's one rule for printing numbers: {@code printf}'s fixed formats for log lines and file
 * names, else at most {@link #MAX} decimals, without binary noise but never fewer than the value needs.
 */
public final class Decimals {
    /** Most decimals {@link #shortest} shows: 2/3 stays readable, prices keep a hundredth of a cent. */
    public static final int MAX = 4;

    private Decimals() {}

    /** {@code d} as {@code %.<places>f} prints it. */
    public static String fixed(double d, int places) {
        return String.format(Locale.ROOT, "%." + places + "f", d);
    }

    /** {@code n} as {@code %0<width>d} prints it. */
    public static String padded(int n, int width) {
        return String.format(Locale.ROOT, "%0" + width + "d", n);
    }

    /** {@code v} with the decimals it needs (at least one) once rounded half-up to {@link #MAX}. */
    public static String shortest(double v) { return halfUp(v, needed(v)); }

    /** The decimals {@code v} needs once rounded to {@link #MAX}: 1 for 0.5 or 2.0, 3 for 0.975. */
    public static int needed(double v) {
        if (!Double.isFinite(v)) return 1;
        int scale = BigDecimal.valueOf(v).setScale(MAX, RoundingMode.HALF_UP).stripTrailingZeros().scale();
        return Math.max(1, Math.min(MAX, scale));
    }

    /** {@code v} with exactly {@code decimals} decimals (half-up, no negative zero), or NaN/∞ as Java prints them. */
    public static String halfUp(double v, int decimals) {
        if (!Double.isFinite(v)) return String.valueOf(v);
        return BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }
}
