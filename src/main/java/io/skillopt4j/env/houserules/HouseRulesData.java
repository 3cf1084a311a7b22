package io.skillopt4j.env.houserules;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.houserules.HouseCategory.Style;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Immutable. The generated house-rules items and their train/val/test splits, with upstream's batch semantics
 * (epoch plan = shuffle with seed + epoch×1000 and consecutive slices; eval batches in split order). Items are
 * generated deterministically from {@code dataSeed}: the same seed gives the same items, ids and splits.
 */
public final class HouseRulesData implements DataLoader {
    private final Map<String, List<Item>> splits;

    private HouseRulesData(Map<String, List<Item>> splits) { this.splits = splits; }

    /**
     * Generates {@code perCategory} items for each of the ten categories and splits each category by the
     * ratio {@code train:val:test} (stratified, so every split covers every category).
     */
    public static HouseRulesData generate(long dataSeed, int perCategory, int[] ratio) {
        if (perCategory < 3) throw ConfigException.badValue("house-rules", "house_rules_per_category", perCategory, "an integer >= 3");
        if (ratio.length != 3 || ratio[0] <= 0 || ratio[1] <= 0 || ratio[2] <= 0)
            throw ConfigException.badValue("house-rules", "split_ratio", java.util.Arrays.toString(ratio), "three positive integers a:b:c");
        Map<String, List<Item>> s = new LinkedHashMap<>();
        s.put("train", new ArrayList<>());
        s.put("val", new ArrayList<>());
        s.put("test", new ArrayList<>());
        int total = ratio[0] + ratio[1] + ratio[2];
        int nTrain = Math.max(1, perCategory * ratio[0] / total), nVal = Math.max(1, perCategory * ratio[1] / total);
        for (HouseCategory c : HouseCategory.values()) {
            SplittableRandom r = new SplittableRandom(dataSeed * 1_000_003L + c.ordinal());
            List<Item> items = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            for (int i = 0; items.size() < perCategory && i < perCategory * 50; i++) {
                String q = HouseTasks.question(c, r);
                if (seen.contains(q)) continue; // no duplicate questions across splits
                seen.add(q);
                String gold = HouseTasks.answer(c, q, Style.HOUSE).orElseThrow();
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("question", q);
                f.put("answer", gold);
                f.put("task_type", c.key());
                items.add(new Item(String.format("%s-%03d", c.key(), items.size()), f));
            }
            s.get("train").addAll(items.subList(0, nTrain));
            s.get("val").addAll(items.subList(nTrain, nTrain + nVal));
            s.get("test").addAll(items.subList(nTrain + nVal, items.size()));
        }
        // interleave categories so the first N of a split is a balanced sample (sel_env_num / test_env_num)
        s.replaceAll((k, v) -> interleave(v));
        return new HouseRulesData(Map.copyOf(s));
    }

    private static List<Item> interleave(List<Item> items) {
        Map<String, List<Item>> byType = new LinkedHashMap<>();
        for (Item it : items) byType.computeIfAbsent(it.taskType(), k -> new ArrayList<>()).add(it);
        List<Item> out = new ArrayList<>();
        for (int i = 0; out.size() < items.size(); i++)
            for (List<Item> l : byType.values()) if (i < l.size()) out.add(l.get(i));
        return List.copyOf(out);
    }

    /** Returns a copy whose splits are truncated to their first {@code n} items (upstream's {@code limit}). */
    public HouseRulesData limited(int n) {
        Map<String, List<Item>> s = new LinkedHashMap<>();
        splits.forEach((k, v) -> s.put(k, v.subList(0, Math.min(n, v.size()))));
        return new HouseRulesData(Map.copyOf(s));
    }

    @Override public int trainSize() { return splits.get("train").size(); }

    @Override public List<Item> split(String name) { return splits.get(canonical(name)); }

    /** Returns upstream's split alias resolution: train; valid_seen/selection/val → val; valid_unseen/test → test; else val. */
    static String canonical(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT);
        return switch (n) {
            case "train" -> "train";
            case "valid_unseen", "test" -> "test";
            default -> "val";
        };
    }

    @Override public List<BatchSpec> planTrainEpoch(int epoch, int stepsPerEpoch, int accumulation, int batchSize, long seed) {
        List<Item> pool = shuffled(splits.get("train"), seed + epoch * 1000L);
        List<BatchSpec> out = new ArrayList<>();
        int n = stepsPerEpoch * accumulation;
        for (int idx = 0; idx < n; idx++) {
            long batchSeed = seed + epoch * 1000L + idx + 1;
            int from = idx * batchSize;
            List<Item> chunk = from < pool.size() ? pool.subList(from, Math.min(pool.size(), from + batchSize)) : List.of();
            if (chunk.isEmpty()) chunk = shuffled(splits.get("train"), batchSeed).subList(0, Math.min(batchSize, pool.size()));
            out.add(new BatchSpec("train", "train", batchSeed, chunk));
        }
        return out;
    }

    @Override public BatchSpec buildTrainBatch(int batchSize, long seed) {
        List<Item> s = shuffled(splits.get("train"), seed);
        return new BatchSpec("train", "train", seed, s.subList(0, Math.min(batchSize, s.size())));
    }

    @Override public BatchSpec buildEvalBatch(int envNum, String split, long seed) {
        List<Item> s = split(split);
        if (envNum > 0 && envNum < s.size()) s = s.subList(0, envNum);
        return new BatchSpec("eval", canonical(split), seed, s);
    }

    private static List<Item> shuffled(List<Item> items, long seed) {
        List<Item> l = new ArrayList<>(items);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = l.size() - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            Item t = l.get(i); l.set(i, l.get(j)); l.set(j, t);
        }
        return l;
    }
}
