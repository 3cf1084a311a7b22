package io.skillopt4j.train;

import io.skillopt4j.env.DataLoader;

import java.nio.file.Path;

/**
 * Not thread-safe; used by the training thread. Scores a skill on the selection split ("valid_seen",
 * {@code sel_env_num} items, seed) through the selection cache: a skill whose hash was scored before is not
 * rolled out again (no folder is written).
 */
final class SelectionEval {
    /** Immutable. Raw hard/soft of a skill on the selection split and whether it came from the cache. */
    record Score(double hard, double soft, boolean cached) {}

    private final TrainSettings s;
    private final DataLoader data;
    private final Rollout rollout;
    private final RunState state;

    SelectionEval(TrainSettings settings, DataLoader data, Rollout rollout, RunState state) {
        this.s = settings;
        this.data = data;
        this.rollout = rollout;
        this.state = state;
    }

    /** Returns the cached score of {@code skill}, or rolls it out into {@code dir} and caches it. */
    Score score(String skill, Path dir) {
        String h = SkillDocument.hash(skill);
        double[] c = state.selCache.get(h);
        if (c != null) return new Score(c[0], c[1], true);
        Score sc = fresh(skill, dir);
        state.selCache.put(h, new double[] {sc.hard(), sc.soft()});
        return sc;
    }

    /** Rolls {@code skill} out on the selection split without consulting the cache. */
    Score fresh(String skill, Path dir) {
        Rollout.Outcome o = rollout.run(data.buildEvalBatch(s.selEnvNum(), "valid_seen", s.seed()), skill, dir, false);
        return new Score(o.hard(), o.soft(), false);
    }
}
