package io.skillopt4j.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Stateless. A Jackson generator decorator that writes doubles and floats as Python's {@code json.dumps} does
 * ({@code float.__repr__}, bare {@code NaN}/{@code Infinity}), so run files diff cleanly against upstream's.
 */
final class PythonFloats {
    private PythonFloats() {}

    /** Wraps every generator of a factory so that doubles and floats, in any value or tree, print as Python's. */
    static JsonGenerator decorate(JsonFactory factory, JsonGenerator g) { return new Generator(g); }

    /** Python's {@code repr(d)}. */
    static String repr(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        return shortest(NumberOutput.toString(d, true), one -> Double.parseDouble(one) == d);
    }

    /** A float's own shortest digits (what Java prints for it) in Python's layout. */
    static String repr(float f) {
        if (!Float.isFinite(f)) return repr((double) f);
        return shortest(NumberOutput.toString(f, true), one -> Float.parseFloat(one) == f);
    }

    /** Java prints two significant digits ({@code 4.9E-324}) where one may do ({@code 5e-324}): that one, if the same. */
    private static String shortest(String java, java.util.function.Predicate<String> same) {
        BigDecimal b = new BigDecimal(java);
        String one = b.signum() != 0 && b.precision() == 2 ? b.round(new MathContext(1, RoundingMode.HALF_EVEN)).toString()
                : null;
        return layout(one != null && same.test(one) ? one : java);
    }

    /** Re-lays Java's shortest text of a finite number as CPython's {@code format_float_short} in {@code 'r'} mode. */
    static String layout(String java) {
        boolean negative = java.startsWith("-");
        String s = negative ? java.substring(1) : java;
        int e = s.indexOf('E');
        int exp = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
        String mantissa = e < 0 ? s : s.substring(0, e);
        int dot = mantissa.indexOf('.');
        String digits = dot < 0 ? mantissa : mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int point = (dot < 0 ? mantissa.length() : dot) + exp; // digits before the decimal point
        int lead = 0;
        while (lead < digits.length() && digits.charAt(lead) == '0') lead++;
        int end = digits.length();
        while (end > lead && digits.charAt(end - 1) == '0') end--;
        String sign = negative ? "-" : "";
        if (lead == end) return sign + "0.0";
        digits = digits.substring(lead, end);
        point -= lead;
        StringBuilder b = new StringBuilder(sign);
        if (point <= -4 || point > 16) {
            b.append(digits.charAt(0));
            if (digits.length() > 1) b.append('.').append(digits, 1, digits.length());
            int x = point - 1;
            b.append('e').append(x < 0 ? '-' : '+');
            if (Math.abs(x) < 10) b.append('0');
            return b.append(Math.abs(x)).toString();
        }
        if (point <= 0) return b.append("0.").append("0".repeat(-point)).append(digits).toString();
        if (point >= digits.length()) return b.append(digits).append("0".repeat(point - digits.length())).append(".0").toString();
        return b.append(digits, 0, point).append('.').append(digits, point, digits.length()).toString();
    }

    private static final class Generator extends JsonGeneratorDelegate {
        Generator(JsonGenerator g) { super(g, false); }

        @Override public void writeNumber(double v) throws IOException { delegate.writeNumber(repr(v)); }

        @Override public void writeNumber(float v) throws IOException { delegate.writeNumber(repr(v)); }
    }
}
