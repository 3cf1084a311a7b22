package io.skillopt4j.env;

import io.skillopt4j.internal.Json;
import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

/** Thread-safe once built. A one-call-per-item chat benchmark defined in a notebook cell (docs/benchmarks.md). */
public final class SimpleBenchmark extends ChatBenchmark {
    private final Spec spec;

    private SimpleBenchmark(Spec spec, BenchmarkContext ctx, DataLoader data) {
        super(spec.name, ctx, data);
        this.spec = spec;
    }

    public static Builder builder(String name) { return new Builder(name); }

    @Override public List<String> taskTypes() { return spec.taskTypes; }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String user = spec.userPrompt.apply(item);
        String reply = ask(ctx, spec.systemPrompt, user, List.of());
        String answer = Answers.lastTagOrLastLine(reply);
        Score s = spec.scorer.apply(item, answer);
        Map<String, Object> f = new LinkedHashMap<>();
        if (!item.taskType().equals("other")) f.put("task_type", item.taskType());
        Json.put(f, "question", user, "predicted_answer", answer, "response", reply);
        f.putAll(s.extras());
        if (!s.failReason().isEmpty()) f.put("fail_reason", s.failReason());
        else if (s.hard() < 1e-9) f.put("fail_reason", "predicted '" + answer + "' (score " + s.soft() + ")");
        Json.put(f, "agent_ok", true, "n_turns", 1);
        List<Map<String, Object>> conv = List.of(turn(1, reply),
                evaluation("Predicted answer: " + answer + "\nhard: " + s.hard() + " soft: " + s.soft()));
        return outcome(item, s.hard(), s.soft(), f, conv, ctx, spec.systemPrompt, user);
    }

    private record Spec(String name, String description, String systemPrompt, Function<Item, String> userPrompt,
                        BiFunction<Item, String, Score> scorer, List<String> taskTypes, int workers) {}

    /** Not thread-safe; use once. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private List<Item> items;
        private List<Item> train;
        private List<Item> val;
        private List<Item> test;
        private String ratio = "2:1:7";
        private long seed = 42;
        private String systemPrompt = "You are a careful assistant.\n\n{skill_section}Give your final answer inside <answer>...</answer>.";
        private Function<Item, String> userPrompt;
        private BiFunction<Item, String, Score> scorer;
        private List<String> taskTypes;
        private int workers = 4;

        Builder(String name) {
            if (name == null || !name.matches("[a-z0-9_.-]+")) throw ConfigException.badValue("SimpleBenchmark", "name", name, "lower-case letters, digits, _ . -");
            this.name = name;
        }

        public Builder description(String d) { this.description = d; return this; }
        /** All items; cut into train/val/test like a ratio split (see {@link #ratio}). */
        public Builder items(List<Item> all) { this.items = List.copyOf(all); return this; }
        /** Explicit splits instead of {@link #items}. */
        public Builder splits(List<Item> train, List<Item> val, List<Item> test) {
            this.train = List.copyOf(train); this.val = List.copyOf(val); this.test = List.copyOf(test); return this;
        }
        /** Ratio and seed for {@link #items} (default "2:1:7", 42; CPython-identical cut). */
        public Builder ratio(String r, long s) { this.ratio = r; this.seed = s; return this; }
        /** System prompt; {@code {skill_section}} is replaced by the skill section. */
        public Builder systemPrompt(String p) { this.systemPrompt = p; return this; }
        public Builder userPrompt(Function<Item, String> f) { this.userPrompt = f; return this; }
        /** Scores the extracted answer (last {@code <answer>} tag, else the last line). */
        public Builder scorer(BiFunction<Item, String, Score> f) { this.scorer = f; return this; }
        public Builder taskTypes(List<String> t) { this.taskTypes = List.copyOf(t); return this; }
        public Builder taskTypes(String... t) { return taskTypes(List.of(t)); }
        public Builder workers(int n) { this.workers = n; return this; }

        /** The factory to pass to {@link Benchmarks#register}. */
        public BenchmarkFactory build() {
            Objects.requireNonNull(userPrompt, "userPrompt");
            Objects.requireNonNull(scorer, "scorer");
            if (items == null && train == null) throw new ConfigException("SimpleBenchmark " + name + ": call items(...) or splits(...)");
            SplitDataLoader loader = items != null ? SplitDataLoader.ofRatio(name, items, ratio, seed) : SplitDataLoader.of(name, train, val, test);
            if (loader.trainSize() == 0) throw new ConfigException("SimpleBenchmark " + name + ": the train split is empty");
            List<String> types = taskTypes != null ? taskTypes : Stream.of("train", "val", "test")
                    .flatMap(s -> loader.split(s).stream()).map(Item::taskType).distinct().sorted().toList();
            Spec spec = new Spec(name, description, systemPrompt, userPrompt, scorer, List.copyOf(types), workers);
            return new BenchmarkFactory() {
                @Override public String name() { return spec.name; }
                @Override public String description() { return spec.description; }
                @Override public Benchmark create(BenchmarkContext ctx) {
                    FlatConfig c = Setting.integer("workers").setIn(ctx.config()) ? ctx.config() : ctx.config().with("workers", spec.workers);
                    return new SimpleBenchmark(spec, new BenchmarkContext(c, ctx.roles(), ctx.outRoot()), loader);
                }
            };
        }
    }
}
