package io.skillopt4j.train.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The honest gate's Student-t bound: known cases, and coverage and false-accept rates on simulated noisy targets. */
class PairedTTest {

    private static double[][] column(double... v) {
        double[][] r = new double[v.length][];
        for (int i = 0; i < v.length; i++) r[i] = new double[] {v[i]};
        return r;
    }

    @Test
    void identicalSkillsAreNeverAccepted() {
        for (double conf : new double[] {0.5, 0.8, 0.9, 0.95, 0.99}) {
            for (int k = 1; k <= 4; k++) {
                PairedT.Test t = PairedT.test(new double[10][k], conf);
                assertFalse(t.accepted(), "confidence " + conf + ", k " + k);
                assertEquals(0.0, t.interval().low());
                assertEquals(0.0, t.interval().high());
                assertEquals(1.0, t.pValue());
            }
        }
    }

    @Test
    void oneRepeatIsTheClassicPairedTOverItems() {
        // 3 of 10 items fixed: mean 0.3, sd sqrt(0.3 · 0.7 · 10/9), t(9) quantile 0.95 = 1.833113
        PairedT.Test t = PairedT.test(column(0, 0, 1, 0, 1, 0, 0, 1, 0, 0), 0.95);
        double se = Math.sqrt(0.3 * 0.7 * 10 / 9) / Math.sqrt(10);
        assertEquals(0.3, t.interval().estimate(), 1e-12);
        assertEquals(0.3 - 1.833113 * se, t.interval().low(), 1e-5);
        assertEquals(0.3 + 1.833113 * se, t.interval().high(), 1e-5);
        assertTrue(t.accepted(), t.toString());
        assertEquals(0.0398, t.pValue(), 1e-3); // P(T(9) >= 1.964)
        assertEquals(10, t.interval().items());
        assertEquals(1, t.interval().repeats());
    }

    @Test
    void aLargeTrueGainIsAccepted() {
        // a rule that fixes 6 of 10 items on a target that flips each answer with probability 0.2, 4 repeats: gain 0.36
        SplittableRandom rnd = new SplittableRandom(5);
        boolean[] fixed = {true, true, true, true, true, true, false, false, false, false};
        int datasets = 500, accepted = 0;
        for (int d = 0; d < datasets; d++) {
            PairedT.Test t = PairedT.test(noisy(rnd, fixed, 0.2, 4), 0.95);
            if (t.accepted()) {
                accepted++;
                assertTrue(t.pValue() < 0.05, "p " + t.pValue());
            }
        }
        assertTrue(accepted >= 0.97 * datasets, "accepted " + accepted + " of " + datasets);
    }

    @Test
    void aGainMatchedByALossIsRejected() {
        PairedT.Test t = PairedT.test(column(1, -1, 0, 0, 1, -1, 0, 0, 0, 0), 0.9);
        assertFalse(t.accepted());
        assertTrue(t.interval().straddles(0));
        assertEquals(0.5, t.pValue(), 1e-12);
    }

    @Test
    void aTargetWithoutNoiseNeedsNoSpread() {
        // repeats that agree: the items' difference is known exactly; 2 of 10 fixed is a gain on these items
        double[][] d = new double[10][2];
        d[3] = new double[] {1, 1};
        d[7] = new double[] {1, 1};
        PairedT.Test t = PairedT.test(d, 0.95);
        assertTrue(t.accepted(), t.toString());
        assertEquals(0.2, t.interval().low(), 1e-12);
        assertEquals(0.0, t.pValue());
        // with one evaluation the items' spread is the only noise measure, and 2 of 10 is not enough at 95 %
        assertFalse(PairedT.test(column(0, 0, 0, 1, 0, 0, 0, 1, 0, 0), 0.95).accepted());
    }

    @Test
    void tooLittleDataGivesAnUnknownIntervalAndAReject() {
        for (double[][] d : new double[][][] {new double[0][], column(1), {null, {}}}) {
            PairedT.Test t = PairedT.test(d, 0.9);
            assertFalse(t.accepted());
            assertFalse(t.interval().known());
            assertEquals(1.0, t.pValue());
        }
        assertTrue(PairedT.test(new double[][] {{1, 0.5}}, 0.5).interval().known()); // one item with repeats will do
    }

    /** Items held fixed, noise drawn again: the lower bound covers the items' true mean gain at about the nominal rate. */
    @Test
    void withRepeatsTheLowerBoundCoversTheTrueGainAtAboutTheNominalRate() {
        SplittableRandom rnd = new SplittableRandom(99);
        boolean[] fixed = {true, true, false, false, false, false, false, false, false, false};
        for (int k : new int[] {2, 4}) {
            int datasets = 2000, covered = 0;
            double truth = 2 * 0.6 / 10; // two items gain 1 − 2P each
            for (int d = 0; d < datasets; d++)
                if (PairedT.test(noisy(rnd, fixed, 0.2, k), 0.9).interval().low() <= truth) covered++;
            double rate = covered / (double) datasets;
            assertEquals(0.9, rate, 0.03, "k " + k + ": coverage " + rate);
        }
    }

    /** The gate's null: a neutral edit on a noisy target is accepted at about 1 − confidence of the time, not more. */
    @Test
    void aNeutralEditIsAcceptedAtMostAtTheNominalRate() {
        SplittableRandom rnd = new SplittableRandom(7);
        boolean[] none = new boolean[10];
        for (double conf : new double[] {0.9, 0.95}) {
            for (int k : new int[] {2, 3, 6}) {
                int datasets = 4000, accepted = 0;
                for (int d = 0; d < datasets; d++) if (PairedT.test(noisy(rnd, none, 0.2, k), conf).accepted()) accepted++;
                double rate = accepted / (double) datasets;
                assertTrue(rate <= (1 - conf) * 1.2 + 0.005, "confidence " + conf + ", k " + k + ": accepted " + rate);
                assertTrue(rate >= (1 - conf) * 0.5, "confidence " + conf + ", k " + k + ": accepted only " + rate);
            }
        }
    }

    /** One evaluation per item, items drawn from a population: coverage of the population's mean gain near nominal. */
    @Test
    void withOneRepeatTheBoundCoversThePopulationGainAtAboutTheNominalRate() {
        SplittableRandom rnd = new SplittableRandom(2024);
        int datasets = 2000, n = 20, covered = 0;
        for (int d = 0; d < datasets; d++) {
            double[][] rows = new double[n][1];
            for (int i = 0; i < n; i++) {
                boolean fixedHere = rnd.nextDouble() < 0.3; // 30 % of the population gains 1 − 2P
                rows[i] = noisy(rnd, new boolean[] {fixedHere}, 0.1, 1)[0];
            }
            if (PairedT.test(rows, 0.95).interval().low() <= 0.3 * 0.8) covered++;
        }
        double rate = covered / (double) datasets;
        assertEquals(0.95, rate, 0.02, "coverage " + rate);
    }

    /**
     * Differences candidate − current per item and repeat on a target that answers item i right iff the skill's rules
     * cover it, each answer flipped with probability {@code p}: the candidate covers {@code fixed} items more, and
     * both cover half of the others.
     */
    static double[][] noisy(SplittableRandom rnd, boolean[] fixed, double p, int k) {
        double[][] d = new double[fixed.length][k];
        for (int i = 0; i < fixed.length; i++) {
            boolean both = !fixed[i] && i % 2 == 0;
            for (int r = 0; r < k; r++) {
                double c = flip(rnd, fixed[i] || both, p), u = flip(rnd, both, p);
                d[i][r] = c - u;
            }
        }
        return d;
    }

    private static double flip(SplittableRandom rnd, boolean right, double p) {
        boolean v = rnd.nextDouble() < p ? !right : right;
        return v ? 1 : 0;
    }
}
