package io.skillopt4j.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Stateless. {@code String.format(Locale.ROOT, "%.Nf", d)} without a {@link java.util.Formatter}: the same text
 * (the shortest decimal digits of {@code d}, rounded half-up to N places, {@code -} kept on negative zeros),
 * at a fraction of the cost on a cold JVM, where each {@code String.format} costs ~0.25 ms — per rollout item
 * that is most of what SkillOpt4J spends between two model calls besides HTTP.
 */
public final class Decimals {
    private Decimals() {}

    /** Returns {@code d} with exactly {@code places} digits after the point, as {@code %.<places>f} prints it. */
    public static String fixed(double d, int places) {
        if (!Double.isFinite(d)) return String.format(Locale.ROOT, "%." + places + "f", d);
        String s = plainHalfUp(d, places);
        return (d < 0 || d == 0 && 1 / d < 0) && !s.startsWith("-") ? "-" + s : s;
    }

    /** {@code BigDecimal.valueOf(v).setScale(places, HALF_UP).toPlainString()} for a finite {@code v}. */
    private static String plainHalfUp(double v, int places) {
        String m = places <= 16 ? roundedDigits(Math.abs(v), places) : null;
        if (m == null) return BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_UP).toPlainString();
        return v < 0 && !allZeros(m) ? "-" + m : m; // BigDecimal has no negative zero
    }

    private static boolean allZeros(String digits) {
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c >= '1' && c <= '9') return false;
        }
        return true;
    }

    /**
     * {@code BigDecimal.valueOf(a).setScale(places, HALF_UP).toPlainString()} for a non-negative {@code a} whose
     * {@link Double#toString} is plain (1e-3 to 1e7), done on that string's digits: a cold JVM interprets
     * BigDecimal's parse, scale and print at ~0.1 ms a number, and every rollout prints its score. Null otherwise.
     */
    private static String roundedDigits(double a, int places) {
        String t = Double.toString(a); // the digits BigDecimal.valueOf reads
        int dot = t.indexOf('.');
        if (dot < 0 || t.indexOf('E') >= 0) return null;
        int frac = t.length() - dot - 1;
        if (frac <= places) {
            StringBuilder b = new StringBuilder(dot + 1 + places).append(t, 0, places == 0 ? dot : t.length());
            for (int i = frac; i < places; i++) b.append('0');
            return b.toString();
        }
        // digits kept, without the point; then one carry pass when the first dropped digit is 5 or more (HALF_UP)
        char[] kept = (t.substring(0, dot) + t.substring(dot + 1, dot + 1 + places)).toCharArray();
        boolean carry = t.charAt(dot + 1 + places) >= '5';
        for (int i = kept.length - 1; carry && i >= 0; i--) {
            carry = kept[i] == '9';
            kept[i] = carry ? '0' : (char) (kept[i] + 1);
        }
        String digits = (carry ? "1" : "") + new String(kept);
        int intLen = digits.length() - places;
        return places == 0 ? digits : digits.substring(0, intLen) + "." + digits.substring(intLen);
    }

    /** Most decimals {@link #shortest} shows. Four keeps 2/3 readable ({@code 0.6667}) and prices to a hundredth of a cent. */
    public static final int MAX = 4;

    /**
     * Returns {@code v} with as many decimals as it needs once rounded half-up to {@link #MAX} (at least one):
     * {@code 0.7300000000000002} prints {@code 0.73}, {@code 0.975} stays {@code 0.975}; NaN/∞ as Java prints them.
     */
    public static String shortest(double v) { return halfUp(v, needed(v)); }

    /** Returns the decimals {@code v} needs once rounded to {@link #MAX}: 1 for 0.5 or 2.0, 3 for 0.975. */
    public static int needed(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return 1;
        String s = plainHalfUp(v, MAX); // its decimals without the trailing zeros
        int dot = s.indexOf('.');
        int end = s.length();
        while (end > dot + 1 && s.charAt(end - 1) == '0') end--;
        return Math.max(1, end - dot - 1);
    }

    /** Returns {@code v} with exactly {@code decimals} decimals (half-up, no negative zero), or NaN/∞ as Java prints them. */
    public static String halfUp(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return String.valueOf(v);
        return plainHalfUp(v, decimals); // never a negative zero, as BigDecimal has none
    }

    /** Returns {@code n} zero-padded to {@code width} ASCII digits, as {@code %0<width>d} prints a non-negative int. */
    public static String padded(int n, int width) {
        if (n < 0) return String.format(Locale.ROOT, "%0" + width + "d", n);
        String s = Integer.toString(n);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }
}
