package io.skillopt4j.cli;

import io.skillopt4j.run.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

class RunsCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) { return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)); }

    @Test
    void lsPrintsOneRowPerRunFolder() {
        Path root = Fixtures.run("python-searchqa").getParent();
        assertEquals(0, run("runs", "ls", root.toString()), err.toString());
        String text = out.toString();
        assertTrue(text.startsWith("run "), text);
        assertTrue(text.contains("python-searchqa          finished"), text);
        assertTrue(text.contains("python-searchqa-killed   incomplete"), text);
        assertTrue(text.contains("4 runs x 14 columns · best val 1.0 in python-searchqa"), text);
    }

    @Test
    void showPrintsSummaryStepsAndEpochsAsTheNotebookDoes() {
        assertEquals(0, run("runs", "show", Fixtures.run("python-searchqa").toString()), err.toString());
        String text = out.toString();
        assertTrue(text.startsWith("== summary\nkey "), text);
        assertTrue(text.contains("== steps\nepoch  step  step_in_epoch  action"), text);
        assertTrue(text.contains("8 steps + final_promotion x 39 columns · best val 1.0 [1.0, 1.0] at step 8 (slow_update_epoch_02)"), text);
        assertTrue(text.contains("== epochs\n"), text);
        assertEquals("", err.toString());
    }

    @Test
    void showSelectedFramesAndWarningsOfAKilledRun() {
        assertEquals(0, run("runs", "show", Fixtures.run("python-searchqa-killed").toString(), "--frame", "edits,warnings"));
        String text = out.toString();
        assertTrue(text.contains("== edits\n"), text);
        assertTrue(text.contains("history.json: not complete JSON (torn write?); ignored"), text);
    }

    @Test
    void userMistakesExitTwoWithOneLine(@TempDir Path dir) throws Exception {
        assertEquals(2, run("runs", "show", dir.resolve("missing").toString()));
        assertEquals("error: " + dir.resolve("missing") + ": no such run folder\n", err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("runs", "show", Fixtures.run("python-searchqa").toString(), "--frame", "stpes"));
        assertTrue(err.toString().startsWith("error: --frame stpes is not a frame; allowed: summary, steps"), err.toString());
        err.getBuffer().setLength(0);
        Files.createDirectories(dir.resolve("empty"));
        assertEquals(2, run("runs", "ls", dir.resolve("empty").toString()));
        assertEquals("error: " + dir.resolve("empty") + ": no run folders in it\n", err.toString());
    }

    @Test
    void reportWritesOneSelfContainedHtmlFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("r.html");
        assertEquals(0, run("report", Fixtures.run("python-searchqa").toString(), Fixtures.run("python-searchqa-partial").toString(),
                "--out", file.toString()), err.toString());
        assertEquals("wrote " + file + "\n", out.toString());
        String html = Files.readString(file);
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertEquals(11, html.split("<img class=\"plot\"", -1).length - 1);
        assertTrue(err.toString().contains("python-searchqa-partial: 2 warning(s)"), err.toString());
    }
}
