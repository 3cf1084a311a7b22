package io.skillopt4j.train.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class PairedBootstrapTest {

    private static double[][] column(double... v) {
        double[][] r = new double[v.length][];
        for (int i = 0; i < v.length; i++) r[i] = new double[] {v[i]};
        return r;
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
    void theSameSeedGivesTheSameIntervalAndAnotherSeedNearlyTheSame() {
        double[][] d = column(0.5, 0, 1, -0.5, 1, 0, 0.25, 1, 0, 0);
        assertEquals(PairedBootstrap.seeded(11).score(d, 0.9), PairedBootstrap.seeded(11).score(d, 0.9));
        assertEquals(PairedBootstrap.seeded(11).score(d, 0.9).low(), PairedBootstrap.seeded(12).score(d, 0.9).low(), 0.03);
    }

    @Test
    void noItemsGiveAnUnknownInterval() {
        Interval ci = PairedBootstrap.seeded(0).score(new double[0][], 0.9);
        assertFalse(ci.known());
        assertEquals("-", ci.format(3));
        assertEquals("0.500 [0.250, 0.750]", new Interval(0.5, 0.25, 0.75, 0.975, 4, 1).format(3));
    }
}
