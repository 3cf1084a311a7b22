package io.skillopt4j.train;

import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.internal.AtomicFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Thread-safe (a gate decided early starts it from a rollout's observer). With {@code train.pipeline_stages}, a step's first rollout started
 * before the step, as soon as its inputs are fixed (the batch is planned, the gate has decided the skill): its calls
 * overlap the previous step's persistence (or the baseline evaluation) instead of waiting for them. Its calls are
 * held back from the usage meter until the step takes the rollout over, so step records count them where upstream
 * makes them; a step takes it only for the same folder and skill (otherwise it is dropped and the step rolls out as
 * usual).
 *
 * <p>Only a step whose folder does not exist yet is started ahead (a folder left by an earlier session is reused by
 * the step itself, as before). A rollout that no step takes — the run stops first, say a stop requested when the
 * previous step finished — is interrupted, waited for and removed with its step folder, and its calls are left out of the
 * session's usage (the cost ledger still prices them): the stopped run's folder and counts are those of the
 * sequential order, and the resumed run makes the step's calls itself. A budget stop instead keeps it ({@link #keep}):
 * its calls are paid for, so the resumed step reuses its rows rather than paying for them twice.
 */
final class RolloutAhead {
    /** Immutable. The started rollout: folder, skill, held-back usage, outcome. */
    private record Started(Path stepDir, Path dir, String skill, UsageMeter held, CompletableFuture<Rollout.Outcome> outcome, Thread thread) {}

    private final Rollout rollout;
    private final UsageMeter usage;
    private Started started;

    RolloutAhead(Rollout rollout, UsageMeter usage) {
        this.rollout = rollout;
        this.usage = usage;
    }

    /**
     * Starts rolling out {@code batch} with {@code skill} into {@code dir} (a training rollout inside the new step folder
     * {@code stepDir}) unless one is started or the step folder exists.
     */
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

    /** Stops a started rollout that no step will take and removes it (see above): nothing is written after this. */
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
