package io.skillopt4j.env;

import java.util.List;
import java.util.Optional;

/** Thread-safe. A benchmark ("env" in SkillOpt): its data, how the target runs a batch, how it is scored. */
public interface Benchmark {
    /** The registry name, e.g. {@code searchqa}. */
    String name();

    DataLoader data();

    /** The task types of the per-type test buckets. */
    List<String> taskTypes();

    /** One result per item, in batch order; an interrupt throws with the flag set once nothing is left to write. */
    List<RolloutResult> rollout(RolloutRequest request);

    /** This benchmark's own version of an optimizer prompt ({@code analyst_error}, ...), if any. */
    default Optional<String> prompt(String name) { return Optional.empty(); }

    /** How many items a rollout runs at once (upstream {@code workers}). */
    default int workers() { return 1; }

    /** Sets a per-item progress callback for later rollouts; ignored by default. */
    default void onProgress(RolloutRunner.Progress progress) {}
}
