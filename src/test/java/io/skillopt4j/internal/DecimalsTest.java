package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DecimalsTest {
    @Test
    void fixedIsPrintfsFixedFormat() {
        assertEquals("10.000", Decimals.fixed(9.9995, 3));
        assertEquals("1000", Decimals.fixed(999.5, 0));
        assertEquals("-0.00", Decimals.fixed(-0.001, 2), "printf keeps the sign of a value rounded to zero");
        assertEquals("0.6667", Decimals.fixed(2 / 3.0, 4));
        assertEquals("NaN", Decimals.fixed(Double.NaN, 3));
        assertEquals("0007", Decimals.padded(7, 4));
        assertEquals("12345", Decimals.padded(12345, 4));
    }

    @Test
    void shortestShowsTheDecimalsAValueNeedsUpToFour() {
        assertEquals("0.975", Decimals.shortest(0.975));
        assertEquals("0.73", Decimals.shortest(0.7300000000000002));
        assertEquals("2.0", Decimals.shortest(2.0));
        assertEquals("0.6667", Decimals.shortest(2 / 3.0));
        assertEquals("120.0", Decimals.shortest(120));
        assertEquals("Infinity", Decimals.shortest(Double.POSITIVE_INFINITY));
        assertEquals(3, Decimals.needed(0.975));
        assertEquals(1, Decimals.needed(100));
        assertEquals(4, Decimals.needed(1e-9 + 0.12345));
        assertEquals("0.0", Decimals.halfUp(-0.00001, 1), "no negative zero in frames");
        assertEquals("-0.1", Decimals.halfUp(-0.05, 1));
    }
}
