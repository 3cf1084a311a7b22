package io.skillopt4j.frames;

import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Immutable (frames are rebuilt on each call). Several runs side by side: each run's frames stacked under a
 * leading {@code run} column, and a {@link #summary()} with one row per run.
 */
public final class Compare {
    private final List<RunFrames> runs;
    private final List<String> labels;

    private Compare(List<RunFrames> runs, List<String> labels) {
        this.runs = List.copyOf(runs);
        this.labels = List.copyOf(labels);
    }

    /** Compares {@code runs}, labelled by folder name (repeated names get {@code #2}, {@code #3}). */
    public static Compare of(List<RunFrames> runs) {
        if (runs.isEmpty()) throw new IllegalArgumentException("compare needs at least one run");
        List<String> labels = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (RunFrames r : runs) {
            String n = r.snapshot().name();
            int k = seen.merge(n, 1, Integer::sum);
            labels.add(k == 1 ? n : n + "#" + k);
        }
        return new Compare(runs, labels);
    }

    public List<String> labels() { return labels; }

    public List<RunFrames> runs() { return runs; }

    // Every run's frame of a kind, stacked, with a leading run column.
    public Frame steps() { return stack("steps", RunFrames::steps); }
    public Frame epochs() { return stack("epochs", RunFrames::epochs); }
    public Frame rollouts() { return stack("rollouts", RunFrames::rollouts); }
    public Frame tokens() { return stack("tokens", RunFrames::tokens); }

    /** One row per run: status, steps, accepts, best selection score and step, test scores, tokens. */
    public Frame summary() {
        RowBuilder b = new RowBuilder().strings("run", "status").ints("steps", "accepts", "rejects", "skips")
                .doubles("baseline_selection_hard", "best_selection_hard").ints("best_step")
                .doubles("baseline_test_hard", "test_hard", "test_delta_hard").longs("tokens").doubles("seconds");
        String bestRun = null;
        double bestVal = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < runs.size(); i++) {
            var snap = runs.get(i).snapshot();
            Map<String, Object> s = snap.summary();
            Frame all = runs.get(i).steps();
            Frame st = all.where(all.stringColumn("action").isNotIn(Headline.AFTER_STEPS_ACTIONS));   // step records only
            Headline.Best best = Headline.best(snap);
            long tok = (long) st.longColumn("tokens").sum(); // the missing skipped; NaN (→ 0) for no rows
            Object total = StepFrames.map(StepFrames.map(s.get("token_summary")).get("_total")).get("total_tokens");
            StringColumn action = st.stringColumn("action");
            b.row(labels.get(i), snap.status(), snap.history().size(), st.booleanColumn("accepted").countTrue(),
                    action.isEqualTo("reject").size(), action.startsWith("skip").size(),
                    s.get("baseline_selection_hard"), best.score(), best.step(), s.get("baseline_test_hard"),
                    s.get("test_hard"), s.get("test_delta_hard"), total instanceof Number n ? n.longValue() : tok,
                    s.get("total_wall_time_s"));
            if (best.score() != null && best.score() > bestVal) { bestVal = best.score(); bestRun = labels.get(i); }
        }
        String footer = runs.size() + " runs x 14 columns" + (bestRun == null ? ""
                : " · best val " + io.skillopt4j.internal.Decimals.shortest(bestVal) + " in " + bestRun);
        return b.build("compare", footer);
    }

    private Frame stack(String name, Function<RunFrames, Frame> frame) {
        Table out = null;
        for (int i = 0; i < runs.size(); i++) {
            Frame f = frame.apply(runs.get(i));
            f.insertColumn(0, StringColumn.create("run", Collections.nCopies(f.rowCount(), labels.get(i))));
            if (out == null) out = f; else out.append(f);
        }
        // "rows", not the frame's unit: a steps frame can hold a final_promotion row besides its steps.
        String footer = out.rowCount() + " rows x " + out.columnCount() + " columns · " + runs.size() + " runs · " + name;
        return new Frame(name, new ArrayList<>(out.columns()), footer);
    }

    /** Best score (line) and candidate selection scores (points) per step, one colour per run. */
    public Plot learningCurves() { return Plots.compareLearningCurves(this); }

    /** The learning curves, then each run's gate timeline. */
    public List<Plot> plots() {
        List<Plot> out = new ArrayList<>(List.of(learningCurves()));
        for (RunFrames r : runs) out.add(Plots.of(r).gateTimeline());
        return out;
    }

    @Override public String toString() { return summary().toString(); }
}
