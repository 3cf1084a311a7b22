package io.skillopt4j.env.houserules;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.env.houserules.HouseCategory.Style;
import io.skillopt4j.internal.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Immutable. The house-rules items of a seed; each split covers every category, interleaved. */
public record HouseRulesData(List<Item> train, List<Item> val, List<Item> test) {
    public HouseRulesData {
        train = List.copyOf(train);
        val = List.copyOf(val);
        test = List.copyOf(test);
    }

    /** Generates {@code perCategory} items for each of the ten categories, split by {@code train:val:test}. */
    public static HouseRulesData generate(long dataSeed, int perCategory, int[] ratio) {
        if (perCategory < 3) throw ConfigException.badValue("config", "house_rules_per_category", perCategory, "an integer >= 3");
        if (ratio.length != 3 || ratio[0] <= 0 || ratio[1] <= 0 || ratio[2] <= 0)
            throw ConfigException.badValue("config", "house_rules_split", java.util.Arrays.toString(ratio), "three positive integers a:b:c");
        List<Item> tr = new ArrayList<>(), va = new ArrayList<>(), te = new ArrayList<>();
        int total = ratio[0] + ratio[1] + ratio[2];
        int nTrain = Math.max(1, perCategory * ratio[0] / total), nVal = Math.max(1, perCategory * ratio[1] / total);
        for (HouseCategory c : HouseCategory.values()) {
            SplittableRandom r = new SplittableRandom(dataSeed * 1_000_003L + c.ordinal());
            List<Item> items = new ArrayList<>();
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; items.size() < perCategory && i < perCategory * 50; i++) {
                String q = HouseTasks.question(c, r);
                if (!seen.add(q)) continue; // no duplicate questions across splits
                items.add(new Item(String.format("%s-%03d", c.key(), items.size()),
                        Json.obj("question", q, "answer", HouseTasks.answer(c, q, Style.HOUSE).orElseThrow(), "task_type", c.key())));
            }
            tr.addAll(items.subList(0, nTrain));
            va.addAll(items.subList(nTrain, Math.min(items.size(), nTrain + nVal)));
            te.addAll(items.subList(Math.min(items.size(), nTrain + nVal), items.size()));
        }
        return new HouseRulesData(interleave(tr), interleave(va), interleave(te));
    }

    private static List<Item> interleave(List<Item> items) {
        Map<String, List<Item>> byType = new LinkedHashMap<>();
        for (Item it : items) byType.computeIfAbsent(it.taskType(), k -> new ArrayList<>()).add(it);
        List<Item> out = new ArrayList<>();
        for (int i = 0; out.size() < items.size(); i++)
            for (List<Item> l : byType.values()) if (i < l.size()) out.add(l.get(i));
        return out;
    }

    /** A copy whose splits keep their first {@code n} items (upstream's {@code limit}). */
    public HouseRulesData limited(int n) {
        return new HouseRulesData(train.subList(0, Math.min(n, train.size())), val.subList(0, Math.min(n, val.size())),
                test.subList(0, Math.min(n, test.size())));
    }

    /** All items of the three splits. */
    public List<Item> all() { return java.util.stream.Stream.of(train, val, test).flatMap(List::stream).toList(); }

    /** The splits as upstream's split data loader. */
    public SplitDataLoader loader() { return SplitDataLoader.of("house-rules", train, val, test); }
}
