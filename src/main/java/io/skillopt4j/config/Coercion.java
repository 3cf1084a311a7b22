package io.skillopt4j.config;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Immutable (static functions). Upstream's {@code --cfg-options} value coercion ({@code _cast_value}: bool →
 * int → float → string) with Python's {@code int()} / {@code float()} acceptance rules: surrounding whitespace,
 * signs, leading zeros, underscores between digits, Unicode decimal digits, {@code nan}/{@code inf} spellings.
 */
public final class Coercion {
    private static final Pattern INT = Pattern.compile("[+-]?[0-9](?:_?[0-9])*");
    private static final String DIGITS = "[0-9](?:_?[0-9])*";
    private static final Pattern FLOAT = Pattern.compile("[+-]?(?:(?:" + DIGITS + ")?\\.(?:" + DIGITS + ")"
            + "|(?:" + DIGITS + ")\\.?)(?:[eE][+-]?" + DIGITS + ")?");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(?:inf|infinity|nan)", Pattern.CASE_INSENSITIVE);

    private Coercion() {}

    /** The typed value of one {@code --cfg-options} value: bool, else int, else float, else the text (no null, no list). */
    public static Object cast(String value) {
        String low = value.toLowerCase(Locale.ROOT);
        if (low.equals("true") || low.equals("yes")) return Boolean.TRUE;
        if (low.equals("false") || low.equals("no")) return Boolean.FALSE;
        return pythonInt(value).map(i -> (Object) i).or(() -> pythonFloat(value).map(d -> d)).orElse(value);
    }

    /** Python {@code int(text)} in base 10, or empty when Python raises ValueError. */
    public static Optional<Number> pythonInt(String text) {
        String s = asciiDigits(pyStrip(text));
        if (s == null || !INT.matcher(s).matches()) return Optional.empty();
        BigInteger b = new BigInteger(s.replace("_", ""));
        if (b.bitLength() < 32) return Optional.of(b.intValue());
        if (b.bitLength() < 64) return Optional.of(b.longValue());
        return Optional.of(b);
    }

    /** Python {@code float(text)}, or empty when Python raises ValueError. */
    public static Optional<Double> pythonFloat(String text) {
        String s = asciiDigits(pyStrip(text));
        if (s == null) return Optional.empty();
        if (SPECIAL.matcher(s).matches()) {
            String l = s.toLowerCase(Locale.ROOT);
            if (l.endsWith("nan")) return Optional.of(Double.NaN);
            return Optional.of(l.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        }
        if (!FLOAT.matcher(s).matches()) return Optional.empty();
        return Optional.of(Double.parseDouble(s.replace("_", "")));
    }

    /** Python {@code str.strip()}: removes Unicode whitespace at both ends. */
    static String pyStrip(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && isPySpace(s.charAt(a))) a++;
        while (b > a && isPySpace(s.charAt(b - 1))) b--;
        return s.substring(a, b);
    }

    private static boolean isPySpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || (c >= 0x1c && c <= 0x1f) || c == 0x85;
    }

    /** Maps Unicode decimal digits to ASCII; returns null when a non-ASCII non-digit remains. */
    private static String asciiDigits(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            if (c >= 128 && Character.getType(c) != Character.DECIMAL_DIGIT_NUMBER) return null;
            out.append(c < 128 ? c : (char) ('0' + Character.digit(c, 10)));
        }
        return out.toString();
    }

    /** Python {@code str(value)} for the scalar types configs hold. */
    public static String pyStr(Object value) {
        if (value == null) return "None";
        if (value instanceof Boolean b) return b ? "True" : "False";
        if (value instanceof Double d) return pyFloat(d);
        if (value instanceof Float f) return pyFloat(f.doubleValue());
        return String.valueOf(value);
    }

    private static String pyFloat(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        if (d == Math.rint(d) && Math.abs(d) < 1e16) return String.valueOf((long) d) + ".0";
        return Double.toString(d);
    }

    /** Python {@code repr()} of a string (single quotes unless the text holds a single quote only). */
    public static String pyRepr(String s) {
        char q = s.contains("'") && !s.contains("\"") ? '"' : '\'';
        StringBuilder b = new StringBuilder().append(q);
        for (char c : s.toCharArray()) {
            if (c == '\\') b.append("\\\\");
            else if (c == q) b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c == '\t') b.append("\\t");
            else if (c == '\r') b.append("\\r");
            else if (c < 0x20 || c == 0x7f) b.append(String.format("\\x%02x", (int) c));
            else b.append(c);
        }
        return b.append(q).toString();
    }
}
