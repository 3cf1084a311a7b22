package io.skillopt4j.frames;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.selection.Selection;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.train.stats.Interval;

/**
 * Thread-safe (stateless apart from the frames it reads). The XChart plots of one run, each a {@link Plot}
 * (an image for notebooks plus PNG bytes); {@link #writeAll(Path)} also writes them as {@code <dir>/<name>.png}.
 */
public final class Plots {
    static final int WIDTH = 800;
    static final int HEIGHT = 450;
    static final List<String> NAMES = List.of("learning_curve", "gate_timeline", "edit_budget", "tokens_by_stage", "score_by_task_type");
    private final RunFrames run;

    private Plots(RunFrames run) { this.run = run; }

    public static Plots of(RunFrames run) { return new Plots(run); }

    /** Names what {@link #all()} draws, e.g. {@code plots of RUN: learning_curve, gate_timeline, … (800x450 PNG)}. */
    @Override public String toString() {
        return "plots of " + run.snapshot().name() + ": " + String.join(", ", NAMES) + " (" + WIDTH + "x" + HEIGHT
                + " PNG; learningCurve(), all(), writeAll(dir))";
    }

    /** Selection score of each candidate, current and best score per step, and test points (baseline, best, final). */
    public Plot learningCurve() { return render("learning_curve", learningCurveChart()); }

    XYChart learningCurveChart() {
        Frame s = run.steps();
        XYChart c = xy("Learning curve", "step", "score");
        // Drawn in this order so the candidate points stay visible on top of the two lines.
        series(c, "best", s, "step", "best_score", false);
        series(c, "current", s, "step", "current_score", false);
        Frame steps = s.where(s.stringColumn("action").isNotIn(Headline.AFTER_STEPS_ACTIONS));
        Frame after = s.where(s.stringColumn("action").isIn(Headline.AFTER_STEPS_ACTIONS));
        series(c, "selection (candidate)", steps, "step", "selection_hard", true);
        bars(c, "selection 95 %", steps, "step", "selection_hard_low", "selection_hard_high");
        // A best raised after the steps (final promotion, gated slow update) gets its own marker and legend entry.
        // (its step and best score are never missing: history records all have a step, the row exists for a known best)
        for (int i = 0; i < after.rowCount(); i++)
            series(c, after.stringColumn("action").get(i), after.rows(i), "step", "best_score", true).setMarker(SeriesMarkers.TRIANGLE_UP);
        Map<String, Object> sum = run.snapshot().summary();
        int last = s.rowCount() == 0 ? 0 : s.intColumn("step").getInt(s.rowCount() - 1);
        // Test points: the initial skill's at step 0, the best skill's at its step, the final skill's at the last.
        int[] xs = {0, sum.get("best_step") instanceof Number n ? n.intValue() : last, last};
        String[] scores = {"baseline_test_hard", "test_hard", "final_test_hard"};
        String[] evals = {"test_eval_baseline", "test_eval", "test_eval_final"};
        RowBuilder tests = new RowBuilder().ints("step").doubles("test_hard", "low", "high");
        for (int k = 0; k < xs.length; k++) {
            Interval ci = Intervals.test(run.snapshot(), evals[k], "overall");
            tests.row(xs[k], sum.get(scores[k]) instanceof Number y ? y : null, Intervals.low(ci), Intervals.high(ci));
        }
        Frame t = tests.build("test", null);
        XYSeries test = series(c, "test", t, "step", "test_hard", true);
        if (test != null) {
            test.setMarker(SeriesMarkers.DIAMOND);
            bars(c, "test 95 %", t, "step", "low", "high");
        }
        return c;
    }

    /** Gate decisions over steps: gate score of each candidate, one colour per action. */
    public Plot gateTimeline() {
        Frame s = run.steps();
        XYChart c = xy("Gate decisions", "step", "candidate gate score");
        // the gate score, else the current score, else 0
        DoubleColumn y = s.doubleColumn("candidate_gate_score").copy();
        y.set(y.isMissing(), s.doubleColumn("current_score"));
        y.set(y.isMissing(), 0.0);
        StringColumn action = s.stringColumn("action");
        for (String a : new TreeSet<>(action.asSet())) {
            Selection rows = action.isEqualTo(a);
            c.addSeries(a, s.intColumn("step").where(rows).asDoubleArray(), y.where(rows).asDoubleArray())
                    .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        return render("gate_timeline", c);
    }

    /** Edit budget per step with the edits merged, selected and applied. */
    public Plot editBudget() {
        Frame s = run.steps();
        XYChart c = xy("Edit budget schedule", "step", "edits");
        series(c, "edit budget", s, "step", "edit_budget", false);
        series(c, "merged", s, "step", "n_edits_merged", true);
        series(c, "selected", s, "step", "n_edits_selected", true);
        series(c, "applied", s, "step", "n_edits_applied", true);
        return render("edit_budget", c);
    }

    /** Total tokens per stage, one bar group per role. */
    public Plot tokensByStage() {
        TreeMap<String, TreeMap<String, Double>> byRole = new TreeMap<>();
        for (Row r : run.tokens().summarize("total_tokens", AggregateFunctions.sum).by("role", "stage"))
            byRole.computeIfAbsent(r.getString("role"), k -> new TreeMap<>())
                    .put(r.getString("stage"), r.getDouble("Sum [total_tokens]"));
        return categories("tokens_by_stage", "Tokens per stage", "stage", "tokens", true, byRole);
    }

    /** Mean hard score per task type, one bar group per evaluation phase. */
    public Plot scoreByTaskType() {
        Frame r = run.rollouts();
        StringColumn phase = r.stringColumn("phase");
        Frame scored = r.where(phase.isIn("train", "selection", "selection_baseline").or(phase.startsWith("test")));
        TreeMap<String, TreeMap<String, Double>> means = new TreeMap<>();
        for (Row x : scored.summarize("hard", AggregateFunctions.sum, AggregateFunctions.count).by("phase", "task_type"))
            means.computeIfAbsent(x.getString("phase"), k -> new TreeMap<>())
                    .put(x.getString("task_type"), x.getDouble("Sum [hard]") / x.getDouble("Count [hard]"));
        return categories("score_by_task_type", "Score by task type", "task type", "mean hard", false, means);
    }

    /** Best score (line) and candidate selection scores (points) per step, one colour per compared run. */
    public static Plot compareLearningCurves(Compare compare) {
        XYChart c = xy("Learning curves", "step", "score");
        for (int i = 0; i < compare.runs().size(); i++) {
            Frame s = compare.runs().get(i).steps();
            series(c, compare.labels().get(i) + " best", s, "step", "best_score", false);
            series(c, compare.labels().get(i) + " selection", s, "step", "selection_hard", true);
        }
        return render("compare_learning_curves", c);
    }

    public List<Plot> all() {
        return List.of(learningCurve(), gateTimeline(), editBudget(), tokensByStage(), scoreByTaskType());
    }

    /** Renders all plots and writes each as {@code dir/<name>.png} (atomically); returns them with their files. */
    public List<Plot> writeAll(Path dir) {
        List<Plot> out = new ArrayList<>();
        for (Plot p : all()) {
            Path f = dir.resolve(p.name() + ".png");
            AtomicFiles.write(f, p.png());
            out.add(new Plot(p.name(), p.image(), p.png(), f));
        }
        return out;
    }

    private static XYChart xy(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        style(c);
        c.getStyler().setXAxisDecimalPattern("#");
        return c;
    }

    /** One bar group per series over the categories any series has (sorted); a series lacking one shows 0. */
    private static Plot categories(String name, String title, String x, String y, boolean stacked,
                                   TreeMap<String, TreeMap<String, Double>> bySeries) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x)
                .yAxisTitle(y).build();
        style(c);
        c.getStyler().setStacked(stacked);
        List<String> cats = bySeries.values().stream().flatMap(m -> m.keySet().stream()).distinct().sorted().toList();
        bySeries.forEach((k, m) -> c.addSeries(k, cats, cats.stream().map(cat -> m.getOrDefault(cat, 0.0)).toList()));
        if (bySeries.isEmpty()) c.addSeries("no data", List.of("none"), List.of(0.0));
        return render(name, c);
    }

    private static void style(Chart<?, ?> c) {
        Styler st = c.getStyler();
        st.setLegendPosition(Styler.LegendPosition.OutsideE);
        st.setChartBackgroundColor(java.awt.Color.WHITE);
        st.setAntiAlias(true);
    }

    /** The points of the rows with both values; null (no series) when there are none. */
    private static XYSeries series(XYChart c, String name, Frame f, String x, String y, boolean markersOnly) {
        Frame pts = f.selectColumns(x, y).dropRowsWithMissingValues();
        if (pts.isEmpty()) return null;
        XYSeries s = c.addSeries(name, pts.numberColumn(0).asDoubleArray(), pts.numberColumn(1).asDoubleArray());
        if (markersOnly) s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        return s;
    }

    /**
     * The 95 % intervals of the rows with both bounds as error bars. XChart's error bars are symmetric: each is drawn
     * around its interval's midpoint, with no marker or legend.
     */
    private static void bars(XYChart c, String name, Frame f, String x, String low, String high) {
        Frame p = f.selectColumns(x, low, high).dropRowsWithMissingValues();
        if (p.isEmpty()) return;
        NumericColumn<?> lo = p.numberColumn(1), hi = p.numberColumn(2);
        XYSeries s = c.addSeries(name, p.numberColumn(0).asDoubleArray(), lo.add(hi).divide(2).asDoubleArray(),
                hi.subtract(lo).divide(2).asDoubleArray());
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.NONE);
        s.setShowInLegend(false);
    }

    private static Plot render(String name, Chart<?, ?> c) {
        if (c instanceof XYChart xy && xy.getSeriesMap().isEmpty()) xy.addSeries("no data", new double[] {0}, new double[] {0});
        BufferedImage img = BitmapEncoder.getBufferedImage(c);
        try {
            byte[] png = BitmapEncoder.getBitmapBytes(c, BitmapEncoder.BitmapFormat.PNG);
            return new Plot(name, img, png, null);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": PNG encoding failed: " + e.getMessage(), e);
        }
    }
}
