package io.skillopt4j.env.houserules;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.GeneratedSplits;
import io.skillopt4j.env.RatioSplit;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Immutable. Makes the {@code house-rules} benchmark from its seed, per-category count, split and limit. */
public final class HouseRulesFactory implements BenchmarkFactory {
    @Override public String name() { return "house-rules"; }

    @Override public String description() {
        return "Synthetic house-style tasks (10 conventions, generated from a seed); runs offline on the simulator.";
    }

    /** The data seed when neither env.house_rules_seed nor env.split_seed is set (the demo's data). */
    static final long DATA_SEED = 42;

    @Override public Benchmark create(BenchmarkContext ctx) {
        FlatConfig c = ctx.config();
        long seed = Setting.longValue("house_rules_seed").in(c).or(() -> Setting.longValue("split_seed").in(c)).orElse(DATA_SEED);
        int per = Setting.integer("house_rules_per_category").of(c);
        int[] ratio = parseRatio(Setting.string("house_rules_split").of(c));
        HouseRulesData data = HouseRulesData.generate(seed, per, ratio);
        int limit = Setting.integer("limit").of(c);
        if (limit > 0) data = data.limited(limit);
        return new HouseRulesBenchmark(ctx, data, generated(ctx.outRoot().resolve("_generated_splits").resolve("house-rules_seed" + seed), data, seed, ratio));
    }

    static int[] parseRatio(String s) {
        String[] p = s.trim().split(":");
        try {
            if (p.length == 3) {
                int[] r = {Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()), Integer.parseInt(p[2].trim())};
                if (r[0] > 0 && r[1] > 0 && r[2] > 0) return r;
            }
        } catch (NumberFormatException ignored) { /* reported below */ }
        throw ConfigException.badValue("config", "house_rules_split", s, "three positive integers a:b:c, e.g. 2:1:3");
    }

    private static GeneratedSplits generated(Path dir, HouseRulesData data, long seed, int[] ratio) {
        List<List<?>> rows = new ArrayList<>();
        Map<String, Object> counts = new LinkedHashMap<>();
        for (String split : RatioSplit.SPLITS) {
            List<Map<String, Object>> out = new ArrayList<>();
            List<Item> items = switch (split) { case "train" -> data.train(); case "val" -> data.val(); default -> data.test(); };
            for (Item it : items) {
                Map<String, Object> m = Json.obj("id", it.id());
                m.putAll(it.fields());
                out.add(m);
            }
            rows.add(out);
            counts.put(split, out.size());
        }
        return new GeneratedSplits(dir, rows, Json.obj("source", "generated: house-rules", "split_mode", "generated",
                "split_ratio", ratio[0] + ":" + ratio[1] + ":" + ratio[2], "split_seed", seed, "counts", counts));
    }
}
