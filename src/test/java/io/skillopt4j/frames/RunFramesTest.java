package io.skillopt4j.frames;

import io.skillopt4j.backend.PriceTable;
import io.skillopt4j.run.Fixtures;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.ColumnType;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class RunFramesTest {
    private static final RunFrames PY = RunFrames.load(Fixtures.run("python-searchqa"));

    @Test
    void stepsFrameOfPythonRunHasDocumentedColumnsTypesAndValues() {
        Frame s = PY.steps();
        assertEquals(8 + 1, s.rowCount(), "eight step records and the final promotion row");
        assertEquals(List.of("epoch", "step", "step_in_epoch", "action", "accepted", "new_best", "edit_budget", "n_rollouts",
                "train_hard", "train_soft", "selection_hard", "selection_soft", "candidate_gate_score", "current_score",
                "best_score", "best_step", "n_patches", "n_edits_proposed", "n_edits_merged", "n_edits_selected",
                "n_edits_applied", "n_edits_unmatched", "skill_len", "prompt_tokens", "completion_tokens",
                "tokens", "seconds", "rollout_s", "reflect_s", "aggregate_s", "select_s", "update_s", "evaluate_s", "selection_hard_low", "selection_hard_high", "gate_gain", "gate_gain_low", "gate_gain_high",
                "gate_p_value"), s.columnNames());
        assertEquals(ColumnType.INTEGER, s.column("edit_budget").type());
        assertEquals(ColumnType.DOUBLE, s.column("train_hard").type());
        assertEquals(ColumnType.BOOLEAN, s.column("accepted").type());
        assertEquals(ColumnType.STRING, s.column("action").type());
        assertEquals(ColumnType.LONG, s.column("tokens").type());
        assertEquals("accept_new_best", s.stringColumn("action").get(0));
        assertEquals(4, s.intColumn("edit_budget").getInt(0));
        assertEquals(6, s.intColumn("n_edits_proposed").getInt(0));
        assertEquals(5, s.intColumn("n_edits_merged").getInt(0));
        assertEquals(4, s.intColumn("n_edits_selected").getInt(0));
        assertEquals(4, s.intColumn("n_edits_applied").getInt(0));
        assertEquals(1, s.intColumn("n_edits_unmatched").getInt(1));
        assertEquals(0.5, s.doubleColumn("selection_hard").getDouble(0));
        assertEquals(0.428571, s.doubleColumn("train_soft").getDouble(0));
        assertEquals(3263 + 1500 + 492 + 3521, s.longColumn("prompt_tokens").getLong(0));
        assertTrue(s.intColumn("edit_budget").isMissing(3), "skip steps have no edit budget");
        assertTrue(s.doubleColumn("selection_hard").isMissing(3));
        assertEquals(2 + 1, s.booleanColumn("accepted").countTrue());
        assertEquals(1.9, s.doubleColumn("seconds").getDouble(0));
    }

    @Test
    void columnLookupForgivesCaseAndSnakeOrCamelAndListsColumnsOnMiss() {
        Frame s = PY.steps();
        assertSame(s.column("edit_budget"), s.column("editBudget"));
        assertSame(s.column("edit_budget"), s.column("EDIT_BUDGET"));
        assertEquals(s.columnIndex("trainHard"), s.columnIndex("train_hard"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.column("budget"));
        assertTrue(e.getMessage().startsWith("no column 'budget' in steps; columns: epoch, step,"), e.getMessage());
    }

    @Test
    void toStringIsBoundedTableStartingWithNewlineAndEndingWithFooter() {
        String text = PY.steps().toString();
        assertTrue(text.startsWith("\nepoch  step"), text);
        assertTrue(text.endsWith("8 steps + final_promotion x 39 columns · best val 1.0 [1.0, 1.0] at step 8 (slow_update_epoch_02)"), text);
        String rollouts = PY.rollouts().toString();
        assertEquals(1 + 2 + 20 + 1 + 1 + 1, rollouts.split("\n", -1).length, "header, rule, 20 rows, one … row, more columns, footer");
        assertTrue(rollouts.contains("…"));
    }

    @Test
    void summaryPrintsWholeWithStatusAndBestInFooter() {
        String text = PY.summary().toString();
        assertFalse(text.contains("…"), text);
        assertTrue(text.contains("\nbest_selection_hard      1.0\n"), text);
        assertTrue(text.endsWith("python-searchqa · finished · best val 1.0 [1.0, 1.0] at step 8 (slow_update_epoch_02)"), text);
    }

    @Test
    void epochsFrameHasSlowUpdateAndMetaSkillEvents() {
        Frame e = PY.epochs();
        assertEquals(2, e.rowCount());
        assertEquals("inject_placeholder", e.stringColumn("slow_update_action").get(0));
        assertEquals("force_accept", e.stringColumn("slow_update_action").get(1));
        assertEquals("skip_first_epoch", e.stringColumn("meta_skill_action").get(0));
        assertEquals("write_meta_skill", e.stringColumn("meta_skill_action").get(1));
        assertEquals(2, e.intColumn("n_persistent_fail").getInt(1));
        assertEquals(4, e.intColumn("n_stable_success").getInt(1));
        assertEquals(2, e.intColumn("accepts").getInt(0));
        assertEquals(2, e.intColumn("skips").getInt(1));
        assertEquals(0.8, e.doubleColumn("best_so_far").getDouble(1));
        assertEquals(0.55, e.doubleColumn("mean_train_hard").getDouble(0), 1e-9);
    }

    @Test
    void editsFrameJoinsRankSelectionStatusAndSourceMinibatch() {
        Frame e = PY.edits();
        assertEquals(10, e.rowCount());
        assertEquals("replace", e.stringColumn("op").get(0));
        assertEquals("minibatch_fail_000", e.stringColumn("source_minibatch").get(0));
        assertEquals("minibatch_succ_000", e.stringColumn("source_minibatch").get(2));
        assertEquals("applied_replace", e.stringColumn("status").get(0));
        assertEquals(1, e.intColumn("rank").getInt(0));
        assertFalse(e.booleanColumn("selected").get(4));
        assertTrue(e.intColumn("rank").isMissing(4));
        assertEquals("not_selected", e.stringColumn("status").get(4));
        assertEquals("skipped_replace_target_not_found", e.stringColumn("status").get(5));
        assertEquals(5, e.booleanColumn("applied").countTrue());
    }

    @Test
    void rolloutsFrameHasOneRowPerTaskPerEvaluation() {
        Frame r = PY.rollouts();
        assertEquals(122, r.rowCount(), "same as the rollout calls in token_summary");
        assertEquals(ColumnType.DOUBLE, r.column("hard").type());
        assertEquals(List.of("final_selection", "meta_skill_curr", "meta_skill_prev", "selection", "selection_baseline",
                "slow_update_curr", "slow_update_prev", "test", "test_baseline", "train").stream().filter(p -> r.stringColumn("phase").contains(p)).toList().size(),
                r.stringColumn("phase").unique().size());
        assertEquals(40, r.where(r.stringColumn("phase").isEqualTo("train")).rowCount());
        assertEquals(10, r.where(r.stringColumn("phase").isEqualTo("test")).rowCount());
        assertEquals("other", r.stringColumn("task_type").get(0));
        Frame test = Frame.of(r.where(r.stringColumn("phase").isEqualTo("test_baseline")));
        assertEquals(0.3, test.doubleColumn("hard").mean(), 1e-9, "matches baseline_test_hard");
    }

    @Test
    void tokensFrameMatchesSummaryTotalsAndPricesByRole() {
        PriceTable prices = PriceTable.of(Map.of("optimizer", Map.of("prompt", 1.0, "completion", 10.0),
                "fake-target", Map.of("prompt", 2.0, "completion", 20.0)), "test");
        Frame t = PY.tokens(prices);
        long total = 0;
        for (int i = 0; i < t.rowCount(); i++) total += t.longColumn("total_tokens").getLong(i);
        assertEquals(71741, total);
        assertEquals("target", t.stringColumn("role").get(3));
        assertEquals((3521 * 2.0 + 388 * 20.0) / 1e6, t.doubleColumn("cost_usd").getDouble(3), 1e-12);
        assertTrue(PY.tokens().doubleColumn("cost_usd").isMissing(0), "no price table → missing cost");
    }

    @Test
    void partialAndKilledRunsGiveWhatIsThere() {
        RunFrames partial = RunFrames.load(Fixtures.run("python-searchqa-partial"));
        assertEquals(4, partial.steps().rowCount());
        assertEquals(0.6, partial.steps().doubleColumn("seconds").getDouble(3));
        assertTrue(partial.steps().footer().endsWith("· incomplete"), partial.steps().footer());
        assertEquals(1, partial.epochs().rowCount());
        assertEquals(3, partial.rollouts().where(partial.rollouts().intColumn("step").isEqualTo(5)).rowCount());
        RunFrames killed = RunFrames.load(Fixtures.run("python-searchqa-killed"));
        assertEquals(6, killed.steps().rowCount());
        assertEquals(2, killed.epochs().rowCount());
        assertEquals("force_accept", killed.epochs().stringColumn("slow_update_action").get(1));
        assertEquals(4, killed.rollouts().where(killed.rollouts().intColumn("step").isEqualTo(7)).rowCount());
        Frame edits = killed.edits();
        assertEquals(10, edits.rowCount(), "step 7 was killed after select: its pool is there, unapplied");
        assertEquals(7, edits.intColumn("step").getInt(9));
        assertTrue(edits.booleanColumn("selected").get(9));
        assertEquals("", edits.stringColumn("status").get(9));
        assertEquals("", edits.stringColumn("step_action").get(9));
        assertEquals("incomplete", killed.summary().stringColumn("value").get(1));
    }

    @Test
    void tracesFrameHasOneRowPerTraceStep() {
        Frame t = RunFrames.load(Fixtures.run("exec-traces")).traces();
        assertEquals(6 + 4 + 3, t.rowCount());
        assertEquals(List.of("phase", "split", "step", "id", "backend", "index", "kind", "tool", "chars", "truncated", "text"), t.columnNames());
        assertEquals("tool_call", t.stringColumn("kind").get(1));
        assertEquals("Read", t.stringColumn("tool").get(1));
        assertEquals(412, t.intColumn("chars").getInt(4));
        assertEquals(2, t.booleanColumn("truncated").countTrue());
        assertTrue(t.footer().endsWith("3 traces"));
    }

    @Test
    void framesAreCopiesSoCellsCanBeRerun() {
        Frame a = PY.steps();
        a.removeColumns("action");
        assertTrue(PY.steps().containsColumn("action"));
    }
}
