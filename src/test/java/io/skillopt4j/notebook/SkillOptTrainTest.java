package io.skillopt4j.notebook;

import io.skillopt4j.frames.Compare;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.run.Fixtures;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.ColumnType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Trains small runs on the offline simulator through the fluent entry and reads them back as frames. */
class SkillOptTrainTest {
    private static SimServer sim;

    @BeforeAll static void startSim() { sim = SimServer.builder().seed(7).start(); }

    @AfterAll static void stopSim() { sim.close(); }

    private static SkillOpt small(Path out) {
        return SkillOpt.config("configs/demo/default.yaml")
                .set("train.num_epochs", 2).set("train.batch_size", 6).set("env.house_rules_per_category", 3)
                .set("evaluation.sel_env_num", 8).set("evaluation.test_env_num", 8).set("optimizer.slow_update_samples", 4)
                .set("gradient.minibatch_size", 3)
                .backend("openai_compatible").baseUrl(sim.url()).outRoot(out)
                .environment(Map.of("OPENAI_COMPATIBLE_API_KEY", "sk-test-not-a-real-key"));
    }

    @Test
    void trainReturnsAJavaRunWhoseFramesHaveTheDocumentedColumnsAndValues(@TempDir Path tmp) {
        RecordingKernel kernel = new RecordingKernel();
        Display.attach(kernel);
        Run run;
        try {
            run = small(tmp.resolve("java-run")).train();
        } finally {
            Display.attach(null);
        }
        // Progress: one display_data with a display id, then update_display_data under that id, step by step.
        assertEquals(1, kernel.displayed.size(), "one live output, updated in place");
        String id = kernel.displayed.get(0).getDisplayId();
        assertNotNull(id);
        assertTrue(kernel.updates.size() >= 3, "updates: " + kernel.updates.size());
        assertTrue(kernel.updates.stream().allMatch(d -> id.equals(d.getDisplayId())));
        String last = (String) kernel.updates.get(kernel.updates.size() - 1).getData(io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.TEXT_PLAIN);
        assertTrue(last.startsWith("done: step "), last);
        assertTrue(((String) kernel.updates.get(0).getData(io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.TEXT_HTML)).contains("<progress"));
        assertEquals("finished", run.status(), run.warnings().toString());
        assertEquals(List.of(), run.warnings());
        Frame all = run.steps();
        Frame steps = all.where(all.stringColumn("action").isNotEqualTo("final_promotion"));
        assertTrue(steps.rowCount() >= 2, steps.toString());
        assertEquals(39, steps.columnCount());
        assertEquals(ColumnType.INTEGER, steps.column("editBudget").type());
        assertEquals(1, steps.intColumn("step").getInt(0));
        assertEquals(steps.rowCount(), steps.intColumn("step").getInt(steps.rowCount() - 1));
        for (int i = 0; i < steps.rowCount(); i++) {
            assertTrue(steps.doubleColumn("train_hard").getDouble(i) >= 0 && steps.doubleColumn("train_hard").getDouble(i) <= 1);
            assertFalse(steps.stringColumn("action").get(i).isEmpty());
        }
        assertEquals(2, run.epochs().rowCount());
        Frame rollouts = run.rollouts();
        assertTrue(rollouts.stringColumn("phase").contains("train"));
        assertTrue(rollouts.stringColumn("phase").contains("test"));
        assertTrue(rollouts.stringColumn("task_type").unique().size() > 1, "house-rules results carry task types");
        long tokens = 0;
        for (int i = 0; i < run.tokens().rowCount(); i++) tokens += run.tokens().longColumn("total_tokens").getLong(i);
        Object total = ((Map<?, ?>) ((Map<?, ?>) run.snapshot().summary().get("token_summary")).get("_total")).get("total_tokens");
        assertEquals(((Number) total).longValue(), tokens, "tokens frame sums to the summary's _total");
        assertFalse(run.bestSkill().text().isEmpty());
        assertNotNull(run.diff(0, steps.rowCount()));
        assertTrue(run.toString().endsWith("x 7 columns" + run.steps().footer().replaceFirst(".* columns", "")), run.toString());

        Compare c = Runs.compare(run, Runs.open(Fixtures.run("python-searchqa")));
        Frame both = c.steps();
        assertEquals(all.rowCount() + 8 + 1, both.rowCount());
        assertEquals(List.of("java-run", "python-searchqa"), both.stringColumn("run").unique().asList().stream().sorted().toList());
        assertTrue(run.writePlots().stream().allMatch(p -> Files.isRegularFile(p.file())));
    }

    @Test
    void trainAsyncShowsProgressAndCanBeStopped(@TempDir Path tmp) {
        Training t = small(tmp.resolve("async")).trainAsync();
        t.stop();
        Run run = t.await();
        assertTrue(t.isDone());
        assertTrue(t.toString().startsWith("\ndone: step "), t.toString());
        assertTrue(run.steps().rowCount() < 4, "stopped before the end: " + run.steps().rowCount() + " steps");
        assertTrue(List.of("stopped", "incomplete", "not started").contains(run.status()), run.status());
        assertEquals(tmp.resolve("async").toAbsolutePath().normalize(), t.outRoot());
    }
}
