package io.skillopt4j.notebook;

import io.skillopt4j.TrainingInterrupted;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/notebooks.md "Interrupt": the ■ button interrupts the cell's thread while a training runs. The run stops at
 * once with one line, no call is made after it, and the same training started again resumes and ends exactly as an
 * uninterrupted run.
 */
class InterruptedTrainingTest {
    @TempDir Path tmp;

    private static SkillOpt demo(SimServer sim, Path out) {
        return SkillOpt.config("configs/demo/default.yaml").set("train.num_epochs", 2).backend("openai_compatible")
                .baseUrl(sim.url()).outRoot(out);
    }

    /** Pressed during step 3's calls, and during the first epoch's end (slow update, meta skill, rollouts started ahead). */
    @ParameterizedTest @CsvSource({"2, 150", "5, 400"})
    void anInterruptedTrainingStopsWithOneLineAndResumesToTheUninterruptedResult(int afterStep, int delayMs) throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(new Latency.Fixed(20)).start()) {
            Path out = tmp.resolve("run");
            AtomicReference<Thread> cell = new AtomicReference<>();
            // the button is pressed from another thread while the run's calls are in flight
            TrainingListener press = new TrainingListener() {
                @Override public void stepFinished(TrainingEvent.StepFinished e) {
                    if (e.step() == afterStep) io.skillopt4j.internal.Daemons.start("press", () -> {
                        try { Thread.sleep(delayMs); } catch (InterruptedException x) { return; }
                        cell.get().interrupt();
                    });
                }
            };
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> flagAfter = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    demo(sim, out).listener(press).train();
                } catch (Throwable e) {
                    thrown.set(e);
                    flagAfter.set(Thread.currentThread().isInterrupted());
                }
            });
            cell.set(t);
            t.start();
            t.join(TimeUnit.SECONDS.toMillis(120));
            assertFalse(t.isAlive(), "the interrupted training returned");
            TrainingInterrupted e = assertInstanceOf(TrainingInterrupted.class, thrown.get());
            assertEquals("training interrupted: " + out.toAbsolutePath().normalize()
                    + " keeps every finished step; start the same training again to resume", e.getMessage());
            assertTrue(flagAfter.get(), "the thread's interrupt flag stays set");
            // the interrupt closes calls in flight rather than waiting for their replies, so the server may count a
            // request sent just before the return a moment later: the count starts once that moment has passed
            Thread.sleep(300);
            long calls = sim.requests();
            Thread.sleep(1000);
            assertEquals(calls, sim.requests(), "no call is made after the training returned");
            assertFalse(Files.exists(out.resolve("summary.json")), "stopped mid-run");

            demo(sim, out).train(); // the same cell again
            demo(sim, tmp.resolve("straight")).train();
            Map<String, Object> resumed = Json.parseObject(Files.readString(out.resolve("summary.json")));
            Map<String, Object> straight = Json.parseObject(Files.readString(tmp.resolve("straight/summary.json")));
            assertEquals(10, resumed.get("total_steps"));
            for (String k : List.of("total_steps", "total_accepts", "total_rejects", "total_skips", "best_step", "best_origin",
                    "best_selection_hard", "baseline_test_hard", "test_hard", "final_test_hard")) {
                assertTrue(straight.get(k) != null, k);
                assertEquals(straight.get(k), resumed.get(k), k);
            }
            assertEquals(Files.readString(tmp.resolve("straight/best_skill.md")), Files.readString(out.resolve("best_skill.md")));
        }
    }
}
