package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Expected values are what python3 (3.11) printed for the expression in each comment. */
class PyTextTest {
    @Test
    void splitsAndStripsOnPythonsWhitespace() {
        // ' a\x1cb\u00a0c\u200bd\u3000'.split()
        assertEquals(List.of("a", "b", "c\u200bd"), PyText.split(" a\u001cb\u00a0c\u200bd\u3000"));
        assertEquals(List.of(), PyText.split(" \u0085\u2028"));
        // '\x1f x\u2028 \x85'.strip()  and  '\x01x\x01'.strip(): control characters are not whitespace
        assertEquals("x", PyText.strip("\u001f x\u2028 \u0085"));
        assertEquals("\u0001x\u0001", PyText.strip("\u0001x\u0001"));
    }

    @Test
    void lowersWithPythonsFinalSigma() {
        // 'ΑΣ_é ΟΔΟΣ. Σ xΣ\u0301y İ'.lower()
        assertEquals("\u03b1\u03c2_\u00e9 \u03bf\u03b4\u03bf\u03c2. \u03c3 x\u03c3\u0301y i\u0307",
                PyText.lower("\u0391\u03a3_\u00e9 \u039f\u0394\u039f\u03a3. \u03a3 x\u03a3\u0301y \u0130"));
        assertEquals("abc", PyText.lower("ABC"));
    }
}
