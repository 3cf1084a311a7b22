package io.skillopt4j.train;

import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.RolloutResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Not thread-safe. Scores a skill on the selection split through the cache; repeat r goes into {@code <dir>_r<r>}. */
record SelectionEval(TrainSettings settings, DataLoader data, Rollout rollout, RunState state) {
    /** Immutable. Raw hard/soft of a skill on the selection split and whether it came from the cache. */
    record Score(double hard, double soft, boolean cached) {}

    /** Immutable. One skill's scored rows per item id (split order); {@code repeats}: how many were rolled out. */
    record Rows(Map<String, List<RolloutResult>> items, int repeats) {
        Rows {
            Map<String, List<RolloutResult>> copy = new LinkedHashMap<>();
            items.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            items = java.util.Collections.unmodifiableMap(copy);
        }

        /** Mean hard and soft over every scored row, as upstream's compute_score over the pooled rows. */
        Score score(boolean cached) {
            double[] hs = Rollout.score(items.values().stream().flatMap(List::stream).toList());
            return new Score(hs[0], hs[1], cached);
        }
    }

    /** The cached score of {@code skill}, or rolled out into {@code dir} and cached, rows to {@code onItem} (null = none). */
    Score score(String skill, Path dir, java.util.function.Consumer<io.skillopt4j.env.RolloutResult> onItem) {
        String h = SkillDocument.hash(skill);
        double[] c = state.selCache.get(h);
        if (c != null) return new Score(c[0], c[1], true);
        Score sc = fresh(skill, dir, onItem);
        state.selCache.put(h, new double[] {sc.hard(), sc.soft()});
        return sc;
    }

    /** How many items a selection evaluation rolls out (once per repeat). */
    int size() { return batch().items().size(); }

    private io.skillopt4j.env.BatchSpec batch() { return data.buildEvalBatch(settings.selEnvNum(), "valid_seen", settings.seed()); }

    /** As {@link #fresh(String, Path)}, handing the rollout's rows to {@code onItem} as they settle (null = none). */
    Score fresh(String skill, Path dir, java.util.function.Consumer<io.skillopt4j.env.RolloutResult> onItem) {
        return onItem == null ? fresh(skill, dir) : io.skillopt4j.env.ItemObserver.observed(onItem, () -> fresh(skill, dir));
    }

    /** Rolls {@code skill} out on the selection split ({@code eval_repeats} times) without consulting the cache. */
    Score fresh(String skill, Path dir) {
        int k = settings.gateTest().repeats();
        if (k == 1) {
            Rollout.Outcome o = rollout.run(batch(), skill, dir, false);
            return new Score(o.hard(), o.soft(), false);
        }
        return rows(skill, dir, k).score(false);
    }

    /** The rows of repeats 1..{@code repeats} of {@code skill}, rolled out into {@code dir} and its repeat folders. */
    Rows rows(String skill, Path dir, int repeats) { return more(new Rows(Map.of(), 0), skill, dir, repeats); }

    /** {@code have} (rows of {@code skill} in {@code dir}) with repeats up to {@code repeats} rolled out and added. */
    Rows more(Rows have, String skill, Path dir, int repeats) {
        Map<String, List<RolloutResult>> items = new LinkedHashMap<>();
        for (io.skillopt4j.env.Item it : batch().items()) items.put(it.id(), new ArrayList<>(have.items().getOrDefault(it.id(), List.of())));
        for (int r = have.repeats() + 1; r <= repeats; r++) {
            for (RolloutResult x : rollout.run(batch(), skill, repeatDir(dir, r), false).results())
                items.computeIfAbsent(x.id(), id -> new ArrayList<>()).add(x);
        }
        return new Rows(items, Math.max(have.repeats(), repeats));
    }

    /** Repeat r's folder: {@code dir} for the first, {@code <dir>_r<r>} for the others. */
    static Path repeatDir(Path dir, int r) { return r <= 1 ? dir : dir.resolveSibling(dir.getFileName() + "_r" + r); }
}
