package io.skillopt4j.frames;

import io.skillopt4j.train.KillableRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** A Java training run killed with SIGKILL mid-run (the trainer's own KillableRun) still loads into frames. */
class KilledJavaRunFramesTest {
    @Test
    void framesOfARunKilledMidStepShowWhatWasWrittenAndNeverThrow(@TempDir Path tmp) throws Exception {
        Path skill = tmp.resolve("skill.md");
        Files.writeString(skill, "# Skill\n\n## Rules\n- Be exact.\n");
        Path out = tmp.resolve("killed");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), KillableRun.class.getName(),
                out.toString(), skill.toString(), "15").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // step 2's folder can appear before step 1 is committed (its rollout overlaps step 1's fsync batch):
            // wait for step 1's record too, which is renamed after its history entry
            while (!(Files.exists(out.resolve("steps/step_0002")) && Files.exists(out.resolve("steps/step_0001/step_record.json")))
                    && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        RunFrames f = RunFrames.load(out);
        assertNotEquals("finished", f.snapshot().status(), "killed before the end");
        assertTrue(f.warnings().contains("summary.json: missing (run in progress or killed?)"), f.warnings().toString());
        Frame steps = f.steps();
        assertTrue(steps.rowCount() >= 1, steps.toString());
        assertEquals(1, steps.intColumn("step").getInt(0));
        assertTrue(f.rollouts().rowCount() > 0);
        assertNotNull(f.edits());
        assertNotNull(f.epochs());
        assertNotNull(f.tokens());
        assertEquals(5, Plots.of(f).all().size());
    }
}
