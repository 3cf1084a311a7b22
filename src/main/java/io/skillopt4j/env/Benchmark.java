package io.skillopt4j.env;

import java.util.List;
import java.util.Optional;

/**
 * Thread-safe. A benchmark ("env" in SkillOpt): its data, how the target runs a batch of tasks with a skill,
 * and how answers are scored. Made by a {@link BenchmarkFactory}, found by name in {@link Benchmarks}.
 *
 * <pre>{@code
 * Benchmark b = Benchmarks.create("searchqa", config, roles);
 * List<RolloutResult> r = b.rollout(new RolloutRequest(b.data().buildEvalBatch(5, "val", 42), skill, dir, false));
 * }</pre>
 */
public interface Benchmark {
    /** Returns the registry name, e.g. {@code searchqa}. */
    String name();

    /** Returns the data loader (splits, epoch plans). */
    DataLoader data();

    /** Returns the task types used for the per-type test buckets. */
    List<String> taskTypes();

    /**
     * Runs every item of the request's batch with the skill, in parallel up to the configured workers,
     * and returns one result per item in batch order (never completion order). Writes the rollout folder. When the
     * calling thread is interrupted it stops its items and throws with the flag still set, but only once nothing of
     * it is left to write: a trainer drops a rollout it started ahead, or stops an interrupted run, that way
     * ({@link RolloutRunner} does so).
     */
    List<RolloutResult> rollout(RolloutRequest request);

    /**
     * Returns this benchmark's version of an optimizer prompt ({@code analyst_error}, {@code rewrite_skill}, ...)
     * when it overrides the generic one.
     */
    default Optional<String> prompt(String name) { return Optional.empty(); }

    /** Returns how many items a rollout runs at once (upstream {@code workers}); default 1. */
    default int workers() { return 1; }

    /** Sets a per-item progress callback for later rollouts (e.g. a notebook progress bar); default ignores it. */
    default void onProgress(RolloutRunner.Progress progress) {}
}
