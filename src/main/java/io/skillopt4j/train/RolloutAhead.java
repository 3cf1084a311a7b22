package io.skillopt4j.train;

import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.internal.AtomicFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe. A step's first rollout started once its batch and skill are fixed, its usage held back until the step
 * takes it. One no step takes is removed with its folder, unless a budget stop keeps it ({@link #keep}), paid for.
 */
final class RolloutAhead {
    private record Started(Path stepDir, Path dir, String skill, UsageMeter held, CompletableFuture<Rollout.Outcome> outcome, Thread thread) {}

    private final Rollout rollout;
    private final UsageMeter usage;
    private Started started;

    RolloutAhead(Rollout rollout, UsageMeter usage) {
        this.rollout = rollout;
        this.usage = usage;
    }

    /** Starts a training rollout into {@code dir} unless one is started or the step folder {@code stepDir} exists. */
    synchronized void start(BatchSpec batch, String skill, Path stepDir, Path dir) {
        if (started != null || Files.exists(stepDir)) return;
        UsageMeter held = new UsageMeter();
        CompletableFuture<Rollout.Outcome> f = new CompletableFuture<>();
        Thread t = ThreadPerTask.start("skillopt-rollout-ahead", () -> {
            try {
                f.complete(UsageMeter.heldIn(held, () -> CostLedger.inPhase("train", () -> rollout.run(batch, skill, dir, true))));
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        started = new Started(stepDir, dir, skill, held, f, t);
    }

    /** The started rollout into {@code dir} with {@code skill}, waited for (its failure rethrown); null when none. */
    Rollout.Outcome take(Path dir, String skill) {
        Started s = claim();
        if (s == null) return null;
        if (!s.dir().equals(dir) || !s.skill().equals(skill)) {
            drop(s);
            return null;
        }
        try {
            return Reflect.join(s.outcome());
        } finally {
            usage.add(s.held());
        }
    }

    /** Stops a started rollout that no step will take and removes it: nothing is written after this. */
    void drop() { drop(claim()); }

    /** Waits for a started rollout that no step will take and keeps its rows and counts (a budget stop). */
    void keep() {
        Started s = claim();
        if (s == null) return;
        settle(s);
        usage.add(s.held());
    }

    private synchronized Started claim() {
        Started s = started;
        started = null;
        return s;
    }

    /** Waits for a started rollout and for its files. */
    private static void settle(Started s) {
        Rollout.Outcome o = s.outcome().handle((x, e) -> x).join();
        if (o != null) o.traces().awaitWrittenQuietly();
    }

    private static void drop(Started s) {
        if (s == null) return;
        s.thread().interrupt(); // nothing of it is kept: its items stop (agent CLIs are killed, slot and retry waits end)
        settle(s);
        AtomicFiles.deleteTreeQuietly(s.stepDir()); // a leftover is a rollout folder of the unrecorded step, which the resumed step reuses
    }
}
