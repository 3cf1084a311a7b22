package io.skillopt4j.train.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedBootstrapTest {

    private static double[][] column(double... v) {
        double[][] r = new double[v.length][];
        for (int i = 0; i < v.length; i++) r[i] = new double[] {v[i]};
        return r;
    }

    @Test
    void identicalSkillsAreNeverAccepted() {
        for (long seed = 0; seed < 200; seed++) {
            PairedBootstrap.Test t = PairedBootstrap.seeded(seed).test(new double[10][3], 0.5);
            assertFalse(t.accepted(), "seed " + seed);
            assertEquals(0.0, t.interval().low());
            assertEquals(0.0, t.interval().high());
            assertEquals(1.0, t.pValue());
        }
    }

    @Test
    void aLargeTrueGainIsAccepted() {
        // 10 items, 7 unchanged, 3 fixed by the candidate: the gain of a rule that answers a class right
        PairedBootstrap.Test t = PairedBootstrap.seeded(1).test(column(0, 0, 1, 0, 1, 0, 0, 1, 0, 0), 0.9);
        assertTrue(t.accepted(), t.toString());
        assertEquals(0.3, t.interval().estimate(), 1e-12);
        assertTrue(t.pValue() < 0.1, "p " + t.pValue());
        assertEquals(10, t.interval().items());
    }

    @Test
    void aGainMatchedByALossIsRejected() {
        PairedBootstrap.Test t = PairedBootstrap.seeded(3).test(column(1, -1, 0, 0, 1, -1, 0, 0, 0, 0), 0.9);
        assertFalse(t.accepted());
        assertTrue(t.interval().straddles(0));
        assertTrue(t.pValue() > 0.3, "p " + t.pValue());
    }

    @Test
    void theSameSeedGivesTheSameIntervalAndAnotherSeedNearlyTheSame() {
        double[][] d = column(0.5, 0, 1, -0.5, 1, 0, 0.25, 1, 0, 0);
        PairedBootstrap.Test a = PairedBootstrap.seeded(11).test(d, 0.9), b = PairedBootstrap.seeded(11).test(d, 0.9);
        assertEquals(a, b);
        PairedBootstrap.Test c = PairedBootstrap.seeded(12).test(d, 0.9);
        assertEquals(a.interval().low(), c.interval().low(), 0.03);
        assertEquals(PairedBootstrap.seedFor(42, "gate", 3), PairedBootstrap.seedFor(42, "gate", 3));
        assertTrue(PairedBootstrap.seedFor(42, "gate", 3) != PairedBootstrap.seedFor(42, "gate", 4));
    }

    /** One-sided coverage of the lower bound on 1,000 simulated datasets of noisy binary scores, near nominal. */
    @Test
    void lowerBoundCoversTheTrueMeanAtAboutTheNominalRate() {
        SplittableRandom data = new SplittableRandom(2024);
        int datasets = 1000, n = 30, covered = 0;
        double p = 0.7;
        for (int d = 0; d < datasets; d++) {
            double[][] rows = new double[n][];
            for (int i = 0; i < n; i++) rows[i] = new double[] {data.nextDouble() < p ? 1 : 0};
            Interval ci = PairedBootstrap.seeded(d, 1000).score(rows, 0.9);
            if (ci.low() <= p) covered++;
        }
        double rate = covered / (double) datasets;
        assertEquals(0.9, rate, 0.035, "coverage " + rate);
    }

    /** Two-sided coverage with repeats: items of differing difficulty, each answered k times by a noisy target. */
    @Test
    void twoSidedIntervalWithRepeatsCoversTheTrueMeanAtAboutTheNominalRate() {
        SplittableRandom data = new SplittableRandom(7);
        int datasets = 1000, n = 20, k = 3, covered = 0;
        for (int d = 0; d < datasets; d++) {
            double[][] rows = new double[n][k];
            double truth = 0;
            for (int i = 0; i < n; i++) {
                double pi = data.nextDouble(); // the item drawn from a population whose mean accuracy is 0.5
                for (int r = 0; r < k; r++) rows[i][r] = data.nextDouble() < pi ? 1 : 0;
            }
            truth = 0.5;
            Interval ci = PairedBootstrap.seeded(d, 1000).score(rows, 0.95);
            if (ci.low() <= truth && truth <= ci.high()) covered++;
        }
        double rate = covered / (double) datasets;
        assertEquals(0.9, rate, 0.035, "coverage " + rate);
    }

    @Test
    void withRepeatsTheItemsAreHeldFixed() {
        // a target without noise: 2 of 10 items fixed in both repeats, nothing broken — a sure gain on these items
        double[][] d = new double[10][2];
        d[3] = new double[] {1, 1};
        d[7] = new double[] {1, 1};
        PairedBootstrap.Test t = PairedBootstrap.seeded(5).test(d, 0.9);
        assertTrue(t.accepted(), t.toString());
        assertEquals(0.2, t.interval().low(), 1e-12);
        // with one repeat the items are resampled, and the same two fixed items are not enough at 90 %
        assertFalse(PairedBootstrap.seeded(5).test(column(0, 0, 0, 1, 0, 0, 0, 1, 0, 0), 0.9).accepted());
    }

    /** Items held fixed, noise resampled: the lower bound covers the items' true mean gain at about the nominal rate. */
    @Test
    void noiseBootstrapCoversTheTrueGainOfFixedItemsAtAboutTheNominalRate() {
        SplittableRandom data = new SplittableRandom(99);
        int datasets = 1000, n = 10, k = 4, covered = 0;
        double[] itemGain = {0.6, 0.6, 0, 0, 0, 0, 0, 0, 0, 0}; // a rule fixing 2 items; each answer flips with P 0.2
        double truth = 0.12, p = 0.2;
        for (int d = 0; d < datasets; d++) {
            double[][] rows = new double[n][k];
            for (int i = 0; i < n; i++) {
                double right = itemGain[i] > 0 ? 1 : 0.5; // candidate right; current wrong on the fixed items
                for (int r = 0; r < k; r++) {
                    double c = flip(data, i < 2 ? 1 : right, p), u = flip(data, i < 2 ? 0 : right, p);
                    rows[i][r] = c - u;
                }
            }
            if (PairedBootstrap.seeded(d, 1000).test(rows, 0.9).interval().low() <= truth) covered++;
        }
        double rate = covered / (double) datasets;
        assertEquals(0.9, rate, 0.035, "coverage " + rate);
    }

    private static double flip(SplittableRandom rnd, double right, double p) {
        double v = right == 0.5 ? (rnd.nextBoolean() ? 1 : 0) : right;
        return rnd.nextDouble() < p ? 1 - v : v;
    }

    @Test
    void noItemsGiveAnUnknownIntervalAndAReject() {
        PairedBootstrap.Test t = PairedBootstrap.seeded(0).test(new double[0][], 0.9);
        assertFalse(t.accepted());
        assertFalse(t.interval().known());
        assertEquals("-", t.interval().format(3));
        assertEquals("0.500 [0.250, 0.750]", new Interval(0.5, 0.25, 0.75, 0.975, 4, 1).format(3));
    }
}
