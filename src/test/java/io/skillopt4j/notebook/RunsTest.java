package io.skillopt4j.notebook;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.frames.Compare;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.Plot;
import io.skillopt4j.frames.Diff;
import io.skillopt4j.run.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class RunsTest {
    private static final Run PY = Runs.open(Fixtures.run("python-searchqa").toString());

    @Test
    void runToStringIsACompactStepsTableWithFooter() {
        String text = PY.toString();
        assertTrue(text.startsWith("\nepoch  step  action           train_hard  selection_hard  current_score  best_score\n"), text);
        assertTrue(text.endsWith("\n8 steps + final_promotion x 7 columns · best val 1.0 [1.0, 1.0] at step 8 (slow_update_epoch_02)"), text);
        assertEquals(1 + 2 + 8 + 1 + 1, text.split("\n", -1).length);
    }

    @Test
    void skillsBestSkillAndDiffComeFromTheRunFolder() {
        assertEquals("skill_v0003.md", PY.skill(3).label());
        assertTrue(PY.bestSkill().text().contains("Answer Rules"));
        Diff d = PY.diff(0, 3);
        assertTrue(d.added() > 0);
        assertTrue(d.text().startsWith("--- skill_v0000.md\n+++ skill_v0003.md\n@@"), d.text());
        assertTrue(d.toString().endsWith("skill_v0000.md → skill_v0003.md · +" + d.added() + " −" + d.removed() + " lines"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PY.skill(12));
        assertEquals("python-searchqa: no skill version 12; versions: 0..8", e.getMessage());
        String doc = PY.skill(0).toString();
        assertTrue(doc.startsWith("\n") && doc.contains("skill_v0000.md · "), doc);
    }

    @Test
    void compareStacksStepsUnderARunColumn() {
        Run killed = Runs.open(Fixtures.run("python-searchqa-killed"));
        Compare c = Runs.compare(PY, killed);
        Frame steps = c.steps();
        assertEquals("run", steps.columnNames().get(0));
        assertEquals(8 + 1 + 6, steps.rowCount(), "the complete run has its final promotion row");
        assertEquals(6, steps.where(steps.stringColumn("run").isEqualTo("python-searchqa-killed")).rowCount());
        assertTrue(steps.footer().startsWith("15 rows x 40 columns · 2 runs · steps"), steps.footer());
        assertTrue(c.toString().startsWith("\nrun "));
        assertEquals(List.of("python-searchqa", "python-searchqa#2"), Runs.compare(PY, PY).labels());
    }

    @Test
    void writePlotsPutsPngFilesUnderPlotsInTheRunFolder(@TempDir Path tmp) {
        Path copy = copyTree(Fixtures.run("python-searchqa-partial"), tmp.resolve("run"));
        List<Plot> plots = Runs.open(copy).writePlots();
        assertEquals(5, plots.size());
        for (Plot p : plots) assertTrue(Files.isRegularFile(copy.resolve("plots").resolve(p.name() + ".png")));
        Path report = Runs.open(copy).report();
        assertEquals(copy.resolve("report.html"), report);
        assertTrue(Files.isRegularFile(report));
    }

    @Test
    void openingIsUsableInStreamsWithoutCheckedExceptions() {
        List<Path> dirs = List.of(Fixtures.run("python-searchqa"), Fixtures.run("python-searchqa-partial"));
        List<Integer> steps = dirs.stream().map(Runs::open).map(r -> r.steps().rowCount()).toList();
        assertEquals(List.of(8 + 1, 4), steps);
        assertThrows(RunFolderException.class, () -> Runs.open("/definitely/not/here"));
        Frame list = Runs.list(Fixtures.run("python-searchqa").getParent());
        assertEquals(4, list.rowCount());
    }

    static Path copyTree(Path from, Path to) {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t); else Files.copy(p, t);
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
