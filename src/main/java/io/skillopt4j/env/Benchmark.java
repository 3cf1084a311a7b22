package io.skillopt4j.env;

import java.util.List;
import java.util.Optional;

/**
 * Thread-safe. A benchmark ("env" in SkillOpt): its data, how the target runs a batch of tasks with a skill, and how
 * answers are scored. Made by a {@link BenchmarkFactory}, found by name in {@link Benchmarks}.
 */
public interface Benchmark {
    /** The registry name, e.g. {@code searchqa}. */
    String name();

    DataLoader data();

    /** The task types of the per-type test buckets. */
    List<String> taskTypes();

    /**
     * Runs the batch with the skill and returns one result per item in batch order; writes the rollout folder. An
     * interrupt stops its items and throws with the flag still set, once nothing of it is left to write.
     */
    List<RolloutResult> rollout(RolloutRequest request);

    /** This benchmark's version of an optimizer prompt ({@code analyst_error}, ...) when it overrides the generic one. */
    default Optional<String> prompt(String name) { return Optional.empty(); }

    /** How many items a rollout runs at once (upstream {@code workers}). */
    default int workers() { return 1; }

    /** Sets a per-item progress callback for later rollouts; ignored by default. */
    default void onProgress(RolloutRunner.Progress progress) {}
}
