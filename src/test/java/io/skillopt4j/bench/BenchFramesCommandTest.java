package io.skillopt4j.bench;

import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.RunFrames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

class BenchFramesCommandTest {
    @Test
    void generatedRunIsReadableAndBenchPrintsBothFigures(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new BenchFramesCommand());
        cl.setOut(new PrintWriter(out, true));
        int code = cl.execute("--steps", "4", "--train", "5", "--val", "6", "--repeat", "1", "--warmups", "0", "--dir", dir.toString());
        assertEquals(0, code);
        String text = out.toString();
        assertTrue(text.contains("4 steps, " + (4 * (5 + 6) + 3 * 6) + " rollout records"), text);
        assertTrue(text.contains("raw Jackson parse of the same files: median "), text);
        assertTrue(text.contains("RunFrames.load + steps/epochs/edits/rollouts/tokens: median "), text);
        RunFrames f = RunFrames.load(dir);
        assertEquals(java.util.List.of(), f.warnings());
        Frame steps = f.steps();
        assertEquals(4, steps.rowCount());
        assertEquals(1, steps.intColumn("n_edits_unmatched").getInt(0));
        assertEquals(4 * 6, f.edits().rowCount());
    }
}
