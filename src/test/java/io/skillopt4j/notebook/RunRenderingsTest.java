package io.skillopt4j.notebook;

import io.skillopt4j.frames.Compare;
import io.skillopt4j.run.Fixtures;
import io.skillopt4j.run.TrainingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/** Issue 16 item 8: runs, comparisons, plots and progress render richly in kernels and as one line in JShell. */
class RunRenderingsTest {
    private static final Run PY = Runs.open(Fixtures.run("python-searchqa"));

    @AfterEach void detach() { Display.attach(null); }

    @Test
    void runRendersAsHeadlineStepsTableAndLearningCurve() {
        Rendering r = Display.render(PY);
        String html = r.get(Rendering.HTML);
        assertNotNull(html, "a Run renders as HTML, not only text");
        assertTrue(html.contains("<b>python-searchqa</b> · finished"), html);
        assertTrue(html.contains("<table class=\"dataframe\""), "steps table");
        assertTrue(html.contains("<td>final_promotion</td>"), "the best raised after the steps is a row");
        assertTrue(html.contains("src=\"data:image/png;base64,"), "learning curve inline");
        assertEquals(PY.toString(), r.text());
    }

    @Test
    void compareRendersItsSummaryAndLearningCurves() {
        Compare c = Runs.compare(PY, Runs.open(Fixtures.run("python-searchqa-killed")));
        Rendering r = Display.render(c);
        assertTrue(r.get(Rendering.HTML).contains("<td>python-searchqa-killed</td>"), "summary table");
        assertTrue(r.get(Rendering.HTML).contains("alt=\"compare_learning_curves\""), "plot");
        assertEquals("compare_learning_curves", c.learningCurves().name());
        assertEquals(1 + 2, c.plots().size(), "learning curves plus one gate timeline per run");
        assertEquals(5, Display.render(PY.plots()).get(Rendering.HTML).split("<img ", -1).length - 1);
    }

    @Test
    void progressIsOneLineInPlainJShellUpdatedPerStep() {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            CellProgress p = new CellProgress(clock::get);
            p.on(new TrainingEvent.RunStarted(Path.of("/tmp/run"), 4, 2, 2, 1));
            p.on(new TrainingEvent.GateDecision(1, "accept_new_best", 0.5, 0.5, 0.975));
            clock.set(3_000_000_000L);
            p.on(new TrainingEvent.StepFinished(1, 4, "accept_new_best", Map.of()));
            p.on(new TrainingEvent.RunFinished(Path.of("/tmp/run"), false, Map.of("best_selection_hard", 0.975)));
        } finally {
            System.setOut(old);
        }
        List<String> lines = List.of(buf.toString(StandardCharsets.UTF_8).split("\n"));
        assertEquals(List.of("training: step 0/4 started · 0 s · /tmp/run",
                "training: step 1/4 accept_new_best · val 0.5 · best 0.975 · 3 s",
                "done: step 1/4 finished · val 0.5 · best 0.975 · 3 s · /tmp/run"), lines);
        assertTrue(lines.stream().allMatch(l -> l.length() <= 120));
    }
}
