package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DecimalsTest {
    @Test
    void printsWhatStringFormatPrints() {
        double[] edge = {0.0, -0.0, 1.0, -1.0, 0.5, 0.00005, 0.00015, 0.000049999, 0.12345, 0.99995, 0.99994999,
            1e-10, -1e-10, 2.5e-5, 1 / 3.0, 2 / 3.0, 0.125, 1e12 + 0.00005, 123456.78905, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE};
        for (int places : new int[] {0, 1, 3, 4}) {
            for (double d : edge) assertEquals(String.format(Locale.ROOT, "%." + places + "f", d), Decimals.fixed(d, places), d + "");
        }
        Random r = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            double d = switch (i % 4) {
                case 0 -> r.nextDouble();
                case 1 -> r.nextInt(100_000) / 10_000.0 + r.nextInt(3) * 0.00005;
                case 2 -> -r.nextDouble() * 1e-3;
                default -> r.nextInt(1000) / (double) (1 + r.nextInt(999));
            };
            int places = 3 + i % 2;
            assertEquals(String.format(Locale.ROOT, "%." + places + "f", d), Decimals.fixed(d, places), d + "");
        }
    }

    @Test
    void digitRoundingAgreesWithBigDecimalAtEveryMagnitude() {
        Random r = new Random(11);
        for (int i = 0; i < 200_000; i++) {
            double d = (r.nextDouble() - 0.3) * Math.pow(10, r.nextInt(14) - 6);
            if (i % 5 == 0) d = Math.round(d * 1e4) / 1e4 + (r.nextBoolean() ? 0.00005 : -0.00005); // ties and near-ties
            if (i % 7 == 0) d = 9.9999 + r.nextInt(3) * 0.00001;                                  // carries into a new digit
            int places = i % 8;
            String want = java.math.BigDecimal.valueOf(d).setScale(places, java.math.RoundingMode.HALF_UP).toPlainString();
            if (d < 0 && !want.startsWith("-")) want = "-" + want;
            assertEquals(want, Decimals.fixed(d, places), d + " at " + places);
        }
        assertEquals("10.000", Decimals.fixed(9.9995, 3));
        assertEquals("1000", Decimals.fixed(999.5, 0));
        assertEquals("-0.00", Decimals.fixed(-0.001, 2));
        assertEquals("0.6667", Decimals.fixed(2 / 3.0, 4));
    }

    @Test
    void halfUpAndNeededAgreeWithTheirBigDecimalForms() {
        Random r = new Random(13);
        for (int i = 0; i < 200_000; i++) {
            double v = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(14) - 6);
            if (i % 5 == 0) v = Math.round(v * 1e4) / 1e4 + (r.nextBoolean() ? 0.00005 : -0.00005);
            if (i % 7 == 0) v = -r.nextInt(10) * 1e-5;                                           // negatives rounding to zero
            int places = i % 6;
            String s = java.math.BigDecimal.valueOf(v).setScale(places, java.math.RoundingMode.HALF_UP).toPlainString();
            assertEquals(s.equals("-0") || s.matches("-0\\.0+") ? s.substring(1) : s, Decimals.halfUp(v, places), v + " at " + places);
            int scale = java.math.BigDecimal.valueOf(v).setScale(Decimals.MAX, java.math.RoundingMode.HALF_UP).stripTrailingZeros().scale();
            assertEquals(Math.max(1, Math.min(Decimals.MAX, scale)), Decimals.needed(v), v + "");
        }
        assertEquals("0.975", Decimals.shortest(0.975));
        assertEquals("0.73", Decimals.shortest(0.7300000000000002));
        assertEquals("2.0", Decimals.shortest(2.0));
        assertEquals("0.0", Decimals.halfUp(-0.00001, 1));
        assertEquals("-0.1", Decimals.halfUp(-0.05, 1));
    }

    @Test
    void padsLikeZeroPaddedFormat() {
        for (int n : new int[] {0, 1, 7, 42, 999, 1000, 12345, Integer.MAX_VALUE, -1, -42}) {
            for (int w : new int[] {2, 3, 4}) assertEquals(String.format(Locale.ROOT, "%0" + w + "d", n), Decimals.padded(n, w));
        }
    }
}
