package io.skillopt4j.env.houserules;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.GeneratedSplits;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

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
        try {
            int[] r = java.util.Arrays.stream(s.trim().split(":")).mapToInt(p -> Integer.parseInt(p.trim())).toArray();
            if (r.length == 3 && r[0] > 0 && r[1] > 0 && r[2] > 0) return r;
        } catch (NumberFormatException ignored) { /* reported below */ }
        throw ConfigException.badValue("config", "house_rules_split", s, "three positive integers a:b:c, e.g. 2:1:3");
    }

    private static GeneratedSplits generated(Path dir, HouseRulesData data, long seed, int[] ratio) {
        List<List<?>> rows = Stream.of(data.train(), data.val(), data.test()).<List<?>>map(items -> items.stream().map(it -> {
            Map<String, Object> m = Json.obj("id", it.id());
            m.putAll(it.fields());
            return m;
        }).toList()).toList();
        return new GeneratedSplits(dir, rows, Json.obj("source", "generated: house-rules", "split_mode", "generated",
                "split_ratio", ratio[0] + ":" + ratio[1] + ":" + ratio[2], "split_seed", seed,
                "counts", Json.obj("train", rows.get(0).size(), "val", rows.get(1).size(), "test", rows.get(2).size())));
    }
}
