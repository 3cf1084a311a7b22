package io.skillopt4j.train;

import io.skillopt4j.env.DataLoader;

import java.nio.file.Path;

/**
 * Not thread-safe (a record of its collaborators; the selection cache is in the mutable RunState); used by the
 * training thread. Scores a skill on the selection split ("valid_seen", {@code sel_env_num} items, seed) through
 * the selection cache: a skill whose hash was scored before is not rolled out again (no folder is written).
 */
record SelectionEval(TrainSettings settings, DataLoader data, Rollout rollout, RunState state) {
    /** Immutable. Raw hard/soft of a skill on the selection split and whether it came from the cache. */
    record Score(double hard, double soft, boolean cached) {}

    /** Returns the cached score of {@code skill}, or rolls it out into {@code dir} and caches it. */
    Score score(String skill, Path dir) { return score(skill, dir, null); }

    /** As {@link #score(String, Path)}, handing the rollout's rows to {@code onItem} as they settle (null = none). */
    Score score(String skill, Path dir, java.util.function.Consumer<io.skillopt4j.env.RolloutResult> onItem) {
        String h = SkillDocument.hash(skill);
        double[] c = state.selCache.get(h);
        if (c != null) return new Score(c[0], c[1], true);
        Score sc = fresh(skill, dir, onItem);
        state.selCache.put(h, new double[] {sc.hard(), sc.soft()});
        return sc;
    }

    /** How many items a selection evaluation rolls out. */
    int size() { return batch().items().size(); }

    private io.skillopt4j.env.BatchSpec batch() { return data.buildEvalBatch(settings.selEnvNum(), "valid_seen", settings.seed()); }

    /** As {@link #fresh(String, Path)}, handing the rollout's rows to {@code onItem} as they settle (null = none). */
    Score fresh(String skill, Path dir, java.util.function.Consumer<io.skillopt4j.env.RolloutResult> onItem) {
        return onItem == null ? fresh(skill, dir) : io.skillopt4j.env.ItemObserver.observed(onItem, () -> fresh(skill, dir));
    }

    /** Rolls {@code skill} out on the selection split without consulting the cache. */
    Score fresh(String skill, Path dir) {
        Rollout.Outcome o = rollout.run(batch(), skill, dir, false);
        return new Score(o.hard(), o.soft(), false);
    }
}
