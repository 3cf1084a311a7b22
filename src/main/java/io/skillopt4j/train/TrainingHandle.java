package io.skillopt4j.train;

import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingProgress;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** Thread-safe. A training run on a background thread ({@link Trainer#trainAsync()}), to follow, stop or await. */
public final class TrainingHandle {
    private final AtomicBoolean stop;
    private final CompletableFuture<TrainingResult> future;
    private final AtomicReference<TrainingProgress> progress;
    private final Path outRoot;

    TrainingHandle(AtomicBoolean stop, CompletableFuture<TrainingResult> future, AtomicReference<TrainingProgress> progress, Path outRoot) {
        this.stop = stop;
        this.future = future;
        this.progress = progress;
        this.outRoot = outRoot;
    }

    /** Requests a stop; the run finishes its current writes and returns a stopped, resumable result. */
    public void stop() { stop.set(true); }

    /** Waits for the run and returns its result; a failed run rethrows its exception. */
    public TrainingResult await() {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stopped waiting for the training into " + outRoot
                    + ": it goes on in the background (stop() stops it after its current writes)", e);
        } catch (ExecutionException e) {
            throw Reflect.cause(e);
        }
    }

    /** True once the run has ended (finished, stopped or failed). */
    public boolean isDone() { return future.isDone(); }

    public TrainingProgress progress() { return progress.get(); }

    public Path outRoot() { return outRoot; }

    /** The result, if the run has finished successfully. */
    public Optional<TrainingResult> result() {
        return future.isDone() && !future.isCompletedExceptionally() ? Optional.of(future.join()) : Optional.empty();
    }

    static void track(AtomicReference<TrainingProgress> p, TrainingEvent e) { p.updateAndGet(x -> x.next(e)); }
}
