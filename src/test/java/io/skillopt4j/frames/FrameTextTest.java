package io.skillopt4j.frames;

import io.skillopt4j.run.Fixtures;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** Issue 16 items 4 and 8: frames print readably in plain text, and derived frames stay frames. */
class FrameTextTest {
    private static final RunFrames PY = RunFrames.load(Fixtures.run("python-searchqa"));

    @Test
    void everyFramePrintsWithinOneHundredTwentyColumnsAndNamesTheColumnsLeftOut() {
        for (Frame f : List.of(PY.steps(), PY.epochs(), PY.edits(), PY.rollouts(), PY.tokens(), PY.summary(), PY.tests())) {
            for (String line : f.toString().split("\n")) {
                assertTrue(line.length() <= TextTable.LINE_WIDTH, f.name() + ": " + line.length() + " wide: " + line);
            }
        }
        String steps = PY.steps().toString();
        assertTrue(steps.contains("\n… 29 more columns: selection_hard, selection_soft, candidate_gate_score,"), steps);
        assertTrue(PY.steps().print(5, 32, 1000).contains("evaluate_s"), "a wider line shows every column");
    }

    @Test
    void fractionsPrintWithoutBinaryNoiseAndWithTheDecimalsTheyNeedColumnByColumn() {
        DoubleColumn d = DoubleColumn.create("score", 0.7300000000000002, 0.975, 0.5, Double.NaN);
        String text = new Frame("t", new ArrayList<>(List.of(d)), null).toString();
        assertEquals(List.of("", "score", "-----", "0.730", "0.975", "0.500", "", "4 rows x 1 columns"), List.of(text.split("\n", -1)));
        assertEquals("0.975", io.skillopt4j.internal.Decimals.shortest(0.975));
        assertEquals("0.73", io.skillopt4j.internal.Decimals.shortest(0.7300000000000002));
        assertEquals("1.0", io.skillopt4j.internal.Decimals.shortest(1.0));
        assertEquals("0.6667", io.skillopt4j.internal.Decimals.shortest(2 / 3.0));
        assertFalse(PY.rollouts().toString().matches("(?s).*\\d\\.\\d{5,}.*"), "no long binary fractions");
    }

    @Test
    void runLabelsThatDifferOnlyPastTheCellCapPrintWhole(@TempDir Path tmp) throws IOException {
        Path a = copyTree(Fixtures.run("python-searchqa"), tmp.resolve("skillopt_searchqa_fake-target_20260601_101010"));
        Path b = copyTree(Fixtures.run("python-searchqa"), tmp.resolve("skillopt_searchqa_fake-target_20260601_101011"));
        Compare c = Compare.of(List.of(RunFrames.load(a), RunFrames.load(b)));
        String text = c.toString();
        assertTrue(text.contains("\nskillopt_searchqa_fake-target_20260601_101010  "), text);
        assertTrue(text.contains("\nskillopt_searchqa_fake-target_20260601_101011  "), text);
        assertTrue(c.steps().toString().contains("skillopt_searchqa_fake-target_20260601_101011"));
        // Long cells that stay distinct when cut are still cut.
        assertTrue(PY.edits().toString().contains("…"));
    }

    @Test
    void derivedFramesKeepLookupFooterAndTextStyle() {
        Frame steps = PY.steps();
        Frame accepted = steps.where(steps.booleanColumn("accepted").isTrue());
        assertEquals(3, accepted.rowCount());
        assertSame(accepted.column("best_score"), accepted.column("bestScore"), "forgiving lookup kept");
        assertTrue(accepted.footer().startsWith("3 rows x 39 columns · of 8 steps + final_promotion · best val 1.0 [1.0, 1.0] at step 8"),
                accepted.footer());
        Frame two = steps.selectColumns("step", "bestScore");
        assertEquals(List.of("step", "best_score"), two.columnNames());
        assertTrue(two.footer().startsWith("8 steps + final_promotion x 2 columns · best val"), two.footer());
        Frame sorted = steps.sortDescendingOn("trainHard").first(3);
        assertTrue(sorted.toString().startsWith("\nepoch  step"), sorted.toString());
        assertTrue(sorted.footer().startsWith("3 rows x 39 columns · of 8 steps"), sorted.footer());
        Table plain = steps.where(t -> t.intColumn("epoch").isEqualTo(2));
        assertInstanceOf(Frame.class, plain, "the Function overload too");
        assertInstanceOf(Frame.class, steps.countBy("action"));
        assertInstanceOf(Frame.class, steps.copy());
        assertEquals(8, steps.dropWhere(steps.stringColumn("action").isEqualTo("final_promotion")).rowCount());
    }

    @Test
    void typedAccessorOnAColumnOfAnotherTypeNamesTheColumnAndItsType() {
        Frame steps = PY.steps();
        ColumnTypeException e = assertThrows(ColumnTypeException.class, () -> steps.intColumn("action"));
        assertEquals("column 'action' in steps is a string column, not int; use stringColumn(\"action\")", e.getMessage());
        assertEquals("string", e.actualType());
        ColumnTypeException d = assertThrows(ColumnTypeException.class, () -> steps.doubleColumn("editBudget"));
        assertEquals("column 'edit_budget' in steps is a int column, not double; use intColumn(\"edit_budget\")", d.getMessage());
        assertThrows(ColumnTypeException.class, () -> steps.numberColumn("action"));
        assertEquals(4, steps.numberColumn("edit_budget").getDouble(0));
        assertInstanceOf(IllegalArgumentException.class, e, "a caller mistake, as a missing column is");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theEditBudgetHasOneNameEvenWhenTheAutonomousLearningRateSetIt(@TempDir Path tmp) throws IOException {
        Path dir = copyTree(Fixtures.run("python-searchqa"), tmp.resolve("autonomous"));
        List<Object> history = io.skillopt4j.internal.Json.parseArray(Files.readString(dir.resolve("history.json")));
        Map<String, Object> first = (Map<String, Object>) history.get(0);
        first.remove("edit_budget");
        first.put("lr_decision", Map.of("learning_rate", 3, "raw_learning_rate", 5, "clamped", true));
        Files.writeString(dir.resolve("history.json"), io.skillopt4j.internal.Json.pretty(history));
        Frame steps = RunFrames.load(dir).steps();
        assertEquals(3, steps.intColumn("edit_budget").getInt(0), "the autonomous decision is the step's edit budget");
        assertFalse(steps.columnNames().contains("learning_rate"), "no second name for the same number");
    }

    @Test
    void valueTypesPrintReadablyNotAsClassAtHash() {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            assertTrue(sim.toString().startsWith("SimServer " + sim.url() + " · model skillopt-sim · seed 7"), sim.toString());
            assertTrue(sim.model().toString().contains("seed 7"));
        }
        assertTrue(Plots.of(PY).toString().startsWith("plots of python-searchqa: learning_curve, gate_timeline,"));
        assertTrue(Report.of(List.of(PY)).toString().startsWith("report over 1 run: python-searchqa"));
        for (Object o : List.of(Plots.of(PY), Report.of(List.of(PY)), Compare.of(List.of(PY)), PY)) {
            assertFalse(o.toString().matches("(?s).*@[0-9a-f]{4,}.*"), o.getClass() + ": " + o);
        }
    }

    static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t); else Files.copy(p, t);
            }
        }
        return to;
    }
}
