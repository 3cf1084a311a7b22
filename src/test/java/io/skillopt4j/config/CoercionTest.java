package io.skillopt4j.config;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoercionTest {
    @Test
    void booleansOnlyTrueYesFalseNoInAnyCase() {
        assertEquals(true, Coercion.cast("true"));
        assertEquals(true, Coercion.cast("YES"));
        assertEquals(false, Coercion.cast("False"));
        assertEquals(false, Coercion.cast("no"));
        assertEquals("on", Coercion.cast("on"));
        assertEquals("off", Coercion.cast("off"));
        assertEquals("y", Coercion.cast("y"));
        assertEquals(1, Coercion.cast("1"));
        assertEquals(0, Coercion.cast("0"));
    }

    @Test
    void integersFollowPythonInt() {
        assertEquals(5, Coercion.cast(" 5 "));
        assertEquals(5, Coercion.cast("+5"));
        assertEquals(-3, Coercion.cast("-3"));
        assertEquals(7, Coercion.cast("007"));
        assertEquals(1000, Coercion.cast("1_000"));
        assertEquals(12, Coercion.cast("１２"));
        assertEquals(5_000_000_000L, Coercion.cast("5000000000"));
        assertEquals(new BigInteger("123456789012345678901234567890"), Coercion.cast("123456789012345678901234567890"));
        assertEquals("0x10", Coercion.cast("0x10"));
        assertEquals("1__0", Coercion.cast("1__0"));
        assertEquals("_1", Coercion.cast("_1"));
    }

    @Test
    void floatsFollowPythonFloat() {
        assertEquals(1.5, Coercion.cast("1.5"));
        assertEquals(0.5, Coercion.cast(".5"));
        assertEquals(5.0, Coercion.cast("5."));
        assertEquals(1000.0, Coercion.cast("1e3"));
        assertEquals(10.5, Coercion.cast("1_0.5"));
        assertEquals(1.0, Coercion.cast("1.0"));
        assertTrue(Double.isNaN((Double) Coercion.cast("nan")));
        assertEquals(Double.POSITIVE_INFINITY, Coercion.cast("inf"));
        assertEquals(Double.NEGATIVE_INFINITY, Coercion.cast("-Infinity"));
        assertEquals("1._5", Coercion.cast("1._5"));
    }

    @Test
    void everythingElseStaysAString() {
        assertEquals("", Coercion.cast(""));
        assertEquals("null", Coercion.cast("null"));
        assertEquals("None", Coercion.cast("None"));
        assertEquals("~", Coercion.cast("~"));
        assertEquals("[1,2]", Coercion.cast("[1,2]"));
        assertEquals("{a: 1}", Coercion.cast("{a: 1}"));
        assertEquals("2:1:7", Coercion.cast("2:1:7"));
        assertEquals("gpt-5.5", Coercion.cast("gpt-5.5"));
    }

    @Test
    void pythonStrAndRepr() {
        assertEquals("True", Coercion.pyStr(true));
        assertEquals("1.0", Coercion.pyStr(1.0));
        assertEquals("None", Coercion.pyStr(null));
        assertEquals("'abc'", Coercion.pyRepr("abc"));
        assertEquals("\"it's\"", Coercion.pyRepr("it's"));
    }
}
