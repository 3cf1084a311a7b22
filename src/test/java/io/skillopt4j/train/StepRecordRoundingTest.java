package io.skillopt4j.train;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Differential: the fast rounding gives what BigDecimal's half-even rounding of the exact binary value gives. */
class StepRecordRoundingTest {
    @Test
    void roundAndFixedAgreeWithBigDecimal() {
        Random r = new Random(3);
        for (int i = 0; i < 300_000; i++) {
            int n = i % 8;
            double x = switch (i % 5) {
                case 0 -> r.nextInt(100_000) / 1000.0;                      // durations in seconds
                case 1 -> (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(12) - 4);
                case 2 -> r.nextInt(4000) / 8.0 - 250;                      // exact binary ties: .5, .25, .125
                case 3 -> (r.nextInt(20_001) - 10_000) / Math.pow(10, n + 1) + (r.nextBoolean() ? 5 : -5) / Math.pow(10, n + 1);
                default -> r.nextInt(1000) / (double) (1 + r.nextInt(999));
            };
            BigDecimal b = new BigDecimal(x).setScale(n, RoundingMode.HALF_EVEN);
            assertEquals(b.doubleValue(), StepRecord.round(x, n), x + " at " + n);
            assertEquals(b.toPlainString(), StepRecord.fixed(x, n), x + " at " + n);
        }
        assertEquals(0.2, StepRecord.round(0.25, 1));
        assertEquals(0.0, StepRecord.round(-0.04, 1));
        assertEquals("0.0", StepRecord.fixed(-0.04, 1));
        assertEquals("2", StepRecord.fixed(2.5, 0));
        assertEquals(1e10, StepRecord.round(1e10, 2), "large values go through BigDecimal");
    }
}
