package io.skillopt4j.notebook;

import io.skillopt4j.TrainingInterrupted;
import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** An evaluation interrupted in a cell stops as a training does: one line, flag set, no call after, the same call resumes. */
class InterruptedEvaluationTest {
    @TempDir Path tmp;

    private static SkillOpt demo(SimServer sim, Path out) {
        return SkillOpt.config("configs/demo/default.yaml").forEval().backend("openai_compatible").baseUrl(sim.url()).outRoot(out);
    }

    @Test void anInterruptedEvaluationStopsWithOneLineAndTheSameCallFinishesIt() throws Exception {
        Path skill = Files.writeString(tmp.resolve("skill.md"), "# Skill\n\nAnswer briefly.\n");
        try (SimServer sim = SimServer.builder().seed(7).latency(new Latency.Fixed(50)).start()) {
            Path out = tmp.resolve("eval");
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> flagAfter = new AtomicReference<>();
            Thread cell = new Thread(() -> {
                try {
                    demo(sim, out).evaluator(skill, "all").run();
                } catch (Throwable e) {
                    thrown.set(e);
                    flagAfter.set(Thread.currentThread().isInterrupted());
                }
            });
            cell.start();
            while (sim.requests() < 5 && cell.isAlive()) Thread.sleep(10); // pressed once the evaluation's calls are in flight
            cell.interrupt();
            cell.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(cell.isAlive(), "the interrupted evaluation returned");
            TrainingInterrupted e = assertInstanceOf(TrainingInterrupted.class, thrown.get(), String.valueOf(thrown.get()));
            assertEquals("evaluation interrupted: " + out.toAbsolutePath().normalize()
                    + " keeps every finished item; start the same evaluation again to resume", e.getMessage());
            assertEquals(out.toAbsolutePath().normalize(), e.folder());
            assertTrue(flagAfter.get(), "the thread's interrupt flag stays set");
            // the interrupt closes calls in flight rather than waiting for their replies, so the server may count a
            // request sent just before the return a moment later: the count starts once that moment has passed
            Thread.sleep(300);
            long calls = sim.requests();
            Thread.sleep(1000);
            assertEquals(calls, sim.requests(), "no call is made after the evaluation returned");
            assertFalse(Files.exists(out.resolve("eval_summary.json")));

            Map<String, Object> resumed = demo(sim, out).evaluator(skill, "all").run(); // the same cell again
            Map<String, Object> straight = demo(sim, tmp.resolve("straight")).evaluator(skill, "all").run();
            assertEquals(straight.get("n_items"), resumed.get("n_items"));
            assertEquals(straight.get("hard"), resumed.get("hard"));
            assertEquals(resumed, Json.parseObject(Files.readString(out.resolve("eval_summary.json"))));
        }
    }
}
