package io.skillopt4j.frames;

import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RunSnapshot;
import io.skillopt4j.train.ScoreIntervals;
import io.skillopt4j.train.stats.Interval;

import java.util.List;

/**
 * Stateless. The 95 % error bars the frames, plots and report show, from a run folder's per-item rows (ours and
 * Python SkillOpt's alike). Absent rows give an unknown interval, shown as missing cells, never as a guess.
 */
final class Intervals {
    private Intervals() {}

    /** The selection score of step {@code step}'s candidate (its {@code selection_eval} rows and their repeats). */
    static Interval selection(RunSnapshot run, int step) {
        if (run.dir() == null) return Interval.none(ScoreIntervals.CONFIDENCE);
        return ScoreIntervals.hard(ScoreIntervals.rowsIn(run.dir().resolve("steps").resolve(io.skillopt4j.run.RunPaths.stepName(step)).resolve("selection_eval")));
    }

    /** The rows of a test evaluation ({@code test_eval_baseline}, {@code test_eval}, {@code test_eval_final}). */
    static List<RolloutResult> testRows(RunSnapshot run, String eval) {
        if (run.dir() == null) return List.of();
        List<RolloutResult> rows = ScoreIntervals.rowsIn(run.dir().resolve(eval));
        // the final skill's evaluation holds only summary.json when it is the best skill: its rows are test_eval's
        if (rows.isEmpty() && eval.equals("test_eval_final") && run.summary().get("final_test_hard") instanceof Number f
                && run.summary().get("test_hard") instanceof Number t && f.doubleValue() == t.doubleValue())
            return ScoreIntervals.rowsIn(run.dir().resolve("test_eval"));
        return rows;
    }

    /** A test evaluation's hard score over the rows of {@code taskType} ("overall" = all). */
    static Interval test(RunSnapshot run, String eval, String taskType) {
        List<RolloutResult> rows = testRows(run, eval);
        if (!taskType.equals("overall")) rows = rows.stream().filter(r -> r.taskType().equals(taskType)).toList();
        return ScoreIntervals.hard(rows);
    }

    /** The paired test gain of {@code eval}'s skill over the initial skill's ({@code test_eval_baseline}). */
    static Interval testGain(RunSnapshot run, String eval) {
        return ScoreIntervals.gain(testRows(run, eval), testRows(run, "test_eval_baseline"));
    }

    /** The selection score of the skill that was best after step {@code bestStep} (0: the initial skill's baseline). */
    static Interval bestAfter(RunSnapshot run, int bestStep) {
        if (run.dir() == null) return Interval.none(ScoreIntervals.CONFIDENCE);
        if (bestStep <= 0) return ScoreIntervals.hard(ScoreIntervals.rowsIn(run.dir().resolve("selection_eval_baseline")));
        return selection(run, bestStep);
    }

    /** The best score's interval, from the first rows (its origin's, else the final selection's) whose mean it is. */
    static Interval best(RunSnapshot run, String origin, double score) {
        if (run.dir() == null) return Interval.none(ScoreIntervals.CONFIDENCE);
        java.nio.file.Path root = run.dir();
        String o = origin == null ? "" : origin;
        List<java.nio.file.Path> dirs = new java.util.ArrayList<>();
        if (o.startsWith("step_")) dirs.add(root.resolve("steps").resolve(o).resolve("selection_eval"));
        if (o.startsWith("slow_update_epoch_"))
            dirs.add(root.resolve("slow_update").resolve("epoch_" + o.substring("slow_update_epoch_".length())).resolve("selection_eval"));
        if (o.isEmpty() || o.equals("initial_skill")) dirs.add(root.resolve("selection_eval_baseline"));
        dirs.add(root.resolve("final_selection_eval"));
        return dirs.stream().map(d -> ScoreIntervals.hard(ScoreIntervals.rowsIn(d))).filter(ci -> isOf(ci, score)).findFirst()
                .orElse(Interval.none(ScoreIntervals.CONFIDENCE));
    }

    /** Whether {@code ci} is the interval of {@code score}: known, and the mean of its rows is that number. */
    static boolean isOf(Interval ci, double score) { return ci.known() && Math.abs(ci.estimate() - score) < 1e-9; }

    /** " [0.6, 0.9]": a headline's interval, bounds to 2 decimals; "" when unknown. */
    static String brackets(Interval ci) {
        if (!ci.known()) return "";
        return " [" + io.skillopt4j.internal.Decimals.shortest(Math.round(ci.low() * 100) / 100.0) + ", "
                + io.skillopt4j.internal.Decimals.shortest(Math.round(ci.high() * 100) / 100.0) + "]";
    }

    /** A bound as a frame cell (null when unknown). */
    static Double low(Interval ci) { return ci.known() ? ci.low() : null; }

    static Double high(Interval ci) { return ci.known() ? ci.high() : null; }

    /** "0.700 [0.400, 0.900]" or "" when unknown. */
    static String text(Interval ci) { return ci.known() ? ci.format(3) : ""; }
}
