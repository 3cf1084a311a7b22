package io.skillopt4j.train;

import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/** Test helper: a training stopped, as a user's {@code stop()} would, once a given step has finished. */
public final class StopAfterStep {
    private StopAfterStep() {}

    /**
     * Builds the trainer with a listener that stops it after {@code step}, runs it and waits for it; returns its handle
     * ({@code await()} gives the stopped result). The latch keeps the stop from racing the handle's creation.
     */
    public static TrainingHandle train(int step, Function<TrainingListener, Trainer> trainer) {
        AtomicReference<TrainingHandle> handle = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        TrainingListener stop = new TrainingListener() {
            @Override public void stepFinished(TrainingEvent.StepFinished e) {
                if (e.step() != step) return;
                try { started.await(); } catch (InterruptedException x) { Thread.currentThread().interrupt(); }
                handle.get().stop();
            }
        };
        handle.set(trainer.apply(stop).trainAsync());
        started.countDown();
        handle.get().await();
        return handle.get();
    }
}
