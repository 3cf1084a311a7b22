package io.skillopt4j.frames;

import io.skillopt4j.run.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Issue 16 item 7: every headline states the same best, and the steps frame and plot show where it came from. */
class HeadlineTest {
    private static final Path NOTEBOOK_RUN = Path.of("notebooks/data/python-run");

    @Test
    void footerBestAgreesWithTheBestScoreColumnIncludingTheSlowUpdatePromotion() {
        for (Path dir : List.of(NOTEBOOK_RUN, Path.of("notebooks/data/java-run"), Fixtures.run("python-searchqa"))) {
            RunFrames run = RunFrames.load(dir);
            Frame steps = run.steps();
            double maxBest = steps.doubleColumn("best_score").max();
            Headline.Best best = Headline.best(run.snapshot());
            assertEquals(best.score(), maxBest, 1e-12, dir + ": footer best vs best_score column");
            assertTrue(steps.footer().contains("best val " + io.skillopt4j.internal.Decimals.shortest(maxBest) + Intervals.brackets(best.interval())
                    + " at step " + best.step()), steps.footer());
            assertTrue(run.epochs().footer().endsWith(Headline.text(run.snapshot())), run.epochs().footer());
            assertTrue(run.summary().footer().endsWith(Headline.text(run.snapshot())), run.summary().footer());
        }
        Frame py = RunFrames.load(NOTEBOOK_RUN).steps();
        int last = py.rowCount() - 1;
        assertEquals("final_promotion", py.stringColumn("action").get(last));
        assertEquals(8, py.intColumn("step").getInt(last));
        assertEquals(1.0, py.doubleColumn("best_score").getDouble(last));
        assertEquals(0.8, py.doubleColumn("best_score").getDouble(last - 1), "the step records themselves are unchanged");
        assertTrue(py.footer().endsWith("best val 1.0 [1.0, 1.0] at step 8 (slow_update_epoch_02)"), py.footer());
    }

    @Test
    void learningCurveMarksTheBestRaisedAfterTheSteps() {
        XYChart c = Plots.of(RunFrames.load(NOTEBOOK_RUN)).learningCurveChart();
        XYSeries promo = c.getSeriesMap().get("final_promotion");
        assertNotNull(promo, "series: " + c.getSeriesMap().keySet());
        assertEquals(8.0, promo.getXData()[0]);
        assertEquals(1.0, promo.getYData()[0]);
        XYSeries best = c.getSeriesMap().get("best");
        assertEquals(1.0, best.getYData()[best.getYData().length - 1], "the best line reaches the promoted best");
    }

    @Test
    void aScoreOfPoint975PrintsAsPoint975Everywhere(@TempDir Path tmp) throws IOException {
        Path dir = FrameTextTest.copyTree(Fixtures.run("python-searchqa"), tmp.resolve("run"));
        for (String f : List.of("summary.json", "runtime_state.json")) {
            Path p = dir.resolve(f);
            Files.writeString(p, Files.readString(p).replaceAll("\"(best_selection_hard|best_score)\": 1\\.0", "\"$1\": 0.975"));
        }
        RunFrames run = RunFrames.load(dir);
        for (String text : List.of(run.steps().footer(), run.summary().footer(), run.epochs().footer(),
                Compare.of(List.of(run)).summary().footer(), run.summary().toString())) {
            assertTrue(text.contains("0.975"), text);
            assertFalse(text.contains("0.98"), text);
        }
    }

    /** Error bars: the best's interval is the one of its own selection rows; a folder without rows shows none. */
    @Test
    void theBestCarriesItsIntervalAndAFolderWithoutRowsStillReads(@TempDir Path tmp) throws IOException {
        RunFrames run = RunFrames.load(Fixtures.run("python-searchqa"));
        Headline.Best best = Headline.best(run.snapshot());
        assertTrue(best.interval().known());
        assertEquals(best.score(), best.interval().estimate(), 1e-12, "the interval is the one of the score shown");
        Frame epochs = run.epochs();
        for (int i = 0; i < epochs.rowCount(); i++) {
            double low = epochs.doubleColumn("best_score_end_low").getDouble(i), high = epochs.doubleColumn("best_score_end_high").getDouble(i);
            double end = epochs.doubleColumn("best_score_end").getDouble(i);
            assertTrue(low <= end && end <= high, "epoch " + (i + 1) + ": " + low + " <= " + end + " <= " + high);
            assertTrue(high - low > 0, "10 selection items that are not all right or all wrong give a spread");
        }

        Path dir = FrameTextTest.copyTree(Fixtures.run("python-searchqa"), tmp.resolve("run"));
        try (var files = Files.walk(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().equals("results.jsonl")).toList()) Files.delete(f);
        }
        RunFrames bare = RunFrames.load(dir);
        assertFalse(Headline.best(bare.snapshot()).interval().known());
        assertTrue(bare.steps().footer().endsWith("best val 1.0 at step 8 (slow_update_epoch_02)"), bare.steps().footer());
        assertTrue(bare.epochs().doubleColumn("best_score_end_low").isMissing().size() == bare.epochs().rowCount());
    }
}
