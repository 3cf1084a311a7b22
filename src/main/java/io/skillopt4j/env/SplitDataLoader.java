package io.skillopt4j.env;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/** Immutable once built, so thread-safe. Upstream's {@code SplitDataLoader}, with CPython-identical shuffles. */
public final class SplitDataLoader implements DataLoader {
    /** Reads the raw rows of one split folder (default: {@link #readFirstJson}). */
    @FunctionalInterface
    public interface SplitReader {
        Rows read(Path splitDir);
    }

    /** Turns one raw row into an item, throwing a {@link ConfigException} via {@link RowRef} on bad data. */
    @FunctionalInterface
    public interface RowMapper {
        Item map(Map<String, Object> row, RowRef ref);
    }

    /** Immutable. Raw rows of a split, their file and, when shuffled (a ratio split), each row's place in it. */
    public record Rows(Path file, List<?> rows, List<Integer> positions) {
        public Rows(Path file, List<?> rows) { this(file, rows, null); }

        RowRef ref(int i) { return new RowRef(file, positions == null ? i : positions.get(i)); }
    }

    private final String env;
    private final Map<String, List<Item>> splits;
    private final Path splitDir;
    private final GeneratedSplits generated;

    private SplitDataLoader(String env, Map<String, List<Item>> splits, Path splitDir, GeneratedSplits generated) {
        this.env = env;
        this.splits = splits;
        this.splitDir = splitDir;
        this.generated = generated;
    }

    /** Starts a builder; {@code env} names the generated-split folder and appears in messages. */
    public static Builder builder(String env) { return new Builder(env); }

    public static Builder builder(String env, BenchmarkContext ctx) { return builder(env).config(ctx.config()).outRoot(ctx.outRoot()); }

    /** A loader from the run's config whose split_mode defaults to ratio (upstream: searchqa, livemath, spreadsheetbench). */
    public static SplitDataLoader ratio(String env, BenchmarkContext ctx, RowMapper mapper) { return builder(env, ctx).defaultMode("ratio").mapper(mapper).build(); }

    /** A loader over in-memory splits (a notebook's lists); the folder is null. */
    public static SplitDataLoader of(String env, List<Item> train, List<Item> val, List<Item> test) {
        return new SplitDataLoader(env, Map.of("train", List.copyOf(train), "val", List.copyOf(val), "test", List.copyOf(test)),
                null, null);
    }

    /** A loader over one list cut like a ratio split. */
    public static SplitDataLoader ofRatio(String env, List<Item> items, String ratio, long seed) {
        List<Item> shuffled = new PyRandom(seed).shuffled(items);
        int[] c = RatioSplit.counts(shuffled.size(), RatioSplit.parseRatio(ratio));
        return of(env, shuffled.subList(0, c[0]), shuffled.subList(c[0], c[0] + c[1]), shuffled.subList(c[0] + c[1], shuffled.size()));
    }

    /** This loader, whose {@link #writeGenerated()} writes {@code g}. */
    public SplitDataLoader withGenerated(GeneratedSplits g) { return new SplitDataLoader(env, splits, g.dir(), g); }

    /** The folder the splits were read from, or (ratio mode) written to. */
    public Path splitDir() { return splitDir; }

    @Override public void writeGenerated() {
        if (generated != null) generated.write();
    }

    @Override public int trainSize() { return splits.get("train").size(); }

    /** Maps upstream's split names to folders: valid_seen/selection/val → val, valid_unseen/test → test, else val. */
    public static String canonical(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "train" -> "train";
            case "valid_unseen", "test" -> "test";
            default -> "val";
        };
    }

    @Override public List<Item> split(String name) { return splits.get(canonical(name)); }

    @Override
    public List<BatchSpec> planTrainEpoch(int epoch, int stepsPerEpoch, int accumulation, int batchSize, long seed) {
        List<Item> train = splits.get("train");
        long base = seed + epoch * 1000L;
        List<Item> order = new PyRandom(base).shuffled(train);
        int n = stepsPerEpoch * Math.max(1, accumulation);
        List<BatchSpec> out = new ArrayList<>(n);
        for (int idx = 0; idx < n; idx++) {
            long batchSeed = base + idx + 1;
            int from = Math.min(order.size(), idx * batchSize);
            List<Item> chunk = order.subList(from, Math.min(order.size(), from + batchSize));
            if (chunk.isEmpty()) {
                List<Item> refill = new PyRandom(batchSeed).shuffled(train);
                chunk = refill.subList(0, Math.min(batchSize, refill.size()));
            }
            out.add(new BatchSpec("train", "train", batchSeed, chunk));
        }
        return out;
    }

    @Override
    public BatchSpec buildTrainBatch(int batchSize, long seed) {
        List<Item> order = new PyRandom(seed).shuffled(splits.get("train"));
        return new BatchSpec("train", "train", seed, order.subList(0, Math.min(batchSize, order.size())));
    }

    @Override
    public BatchSpec buildEvalBatch(int envNum, String split, long seed) {
        List<Item> items = split(split);
        if (envNum > 0 && envNum < items.size()) items = items.subList(0, envNum);
        return new BatchSpec("eval", split, seed, items);
    }

    /** The default reader: the lexicographically first {@code *.json} file of the folder, a JSON array. */
    public static Rows readFirstJson(Path dir) {
        Path file = firstWithSuffix(dir, ".json");
        if (file == null) throw new ConfigException("No .json file found in " + dir);
        Object o;
        try {
            o = Json.read(file);
        } catch (UncheckedIOException e) {
            throw new ConfigException(file + ": not valid JSON (" + oneLine(e.getCause().getMessage()) + ")");
        }
        if (!(o instanceof List<?> l)) {
            throw new ConfigException("Expected JSON array in " + file + ", got " + (o == null ? "null" : o instanceof Map ? "object" : o.getClass().getSimpleName()));
        }
        return new Rows(file, new ArrayList<>(l));
    }

    /** Upstream's CSV splits (docvqa, officeqa): the first {@code *.csv} file of the folder, else {@link #readFirstJson}. */
    public static Rows readFirstCsvOrJson(Path dir) {
        Path csv = firstWithSuffix(dir, ".csv");
        if (csv == null) return readFirstJson(dir);
        try {
            return new Rows(csv, Csv.parse(Files.readString(csv)));
        } catch (IOException e) {
            throw new ConfigException("cannot read " + csv + ": " + e.getMessage());
        }
    }

    public static Path firstWithSuffix(Path dir, String suffix) {
        try (Stream<Path> st = Files.list(dir)) {
            return st.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(suffix) && Files.isRegularFile(p))
                    .sorted().findFirst().orElse(null);
        } catch (IOException e) {
            throw new ConfigException("cannot list " + dir + ": " + e.getMessage());
        }
    }

    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").trim();
    }

    /** The default mapper: {@code id} (or uid, questionId, key) required; all fields kept. */
    public static Item defaultItem(Map<String, Object> row, RowRef ref) {
        return new Item(RowRef.text(ref.requireFirst(row, "a string id", "id", "uid", "questionId", "key")), row);
    }

    /** Not thread-safe; use once. */
    public static final class Builder {
        private final String env;
        private FlatConfig config = FlatConfig.empty();
        private Path outRoot = Path.of(".");
        private String defaultMode = "split_dir";
        private SplitReader reader = SplitDataLoader::readFirstJson;
        private RowMapper mapper = SplitDataLoader::defaultItem;
        private Function<Path, Path> resolver = p -> p;

        Builder(String env) { this.env = env; }

        /** The flat config: split_mode, split_dir, data_path, split_ratio, split_seed, split_output_dir, limit, seed. */
        public Builder config(FlatConfig c) { this.config = c; return this; }
        public Builder outRoot(Path p) { this.outRoot = p; return this; }
        /** The mode when {@code split_mode} is unset (upstream: ratio for searchqa/livemath/spreadsheetbench). */
        public Builder defaultMode(String m) { this.defaultMode = m; return this; }
        public Builder reader(SplitReader r) { this.reader = r; return this; }
        public Builder mapper(RowMapper m) { this.mapper = m; return this; }
        /** How relative paths in the config are resolved (default: against the working directory). */
        public Builder resolver(Function<Path, Path> r) { this.resolver = r; return this; }

        public SplitDataLoader build() {
            String mode = Setting.string("split_mode").of(config).trim().toLowerCase(Locale.ROOT);
            if (mode.isEmpty()) mode = defaultMode;
            if (!mode.equals("ratio") && !mode.equals("split_dir")) {
                throw ConfigException.badValue("", "split_mode", Setting.string("split_mode").of(config), "\"ratio\" or \"split_dir\"");
            }
            Path dir;
            RatioSplit.Cut cut = null;
            if (mode.equals("ratio")) {
                String data = Setting.string("data_path").of(config).trim();
                if (data.isEmpty()) {
                    throw new ConfigException("split_mode=ratio needs data_path (one JSON/JSONL file); or set split_mode=split_dir with split_dir");
                }
                String ratio = Setting.string("split_ratio").of(config).trim();
                if (ratio.isEmpty()) ratio = "2:1:7";
                long seed = Setting.longValue("split_seed").of(config);
                if (seed == 0) seed = Setting.longValue("seed").of(config);
                String outDir = Setting.string("split_output_dir").of(config).trim();
                dir = outDir.isEmpty() ? RatioSplit.defaultDir(outRoot, Setting.string("env").in(config).orElse(env), ratio, seed)
                        : resolver.apply(Path.of(outDir)).toAbsolutePath().normalize();
                cut = RatioSplit.cut(resolver.apply(Path.of(data)), ratio, seed, dir); // written once the run folder is checked
            } else {
                String sd = Setting.string("split_dir").of(config).trim();
                if (sd.isEmpty()) {
                    throw new ConfigException(env + " requires either split_mode=ratio with data_path, or split_mode=split_dir with split_dir pointing to train/val/test/");
                }
                dir = resolver.apply(Path.of(sd));
                if (!Files.isDirectory(dir)) throw new ConfigException("split_dir " + dir + " does not exist (expected a folder with train/ val/ test/)");
            }
            int limit = Setting.integer("limit").of(config);
            Map<String, List<Item>> splits = new LinkedHashMap<>();
            for (String s : RatioSplit.SPLITS) {
                if (cut == null && !Files.isDirectory(dir.resolve(s))) throw new ConfigException("Missing '" + s + "/' subdirectory in split_dir: " + dir);
            }
            for (int si = 0; si < RatioSplit.SPLITS.size(); si++) {
                String s = RatioSplit.SPLITS.get(si);
                Rows rows = cut == null ? reader.read(dir.resolve(s)) : new Rows(cut.source(), cut.splits().rows().get(si), cut.positions().get(si));
                List<Item> items = new ArrayList<>();
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (int i = 0; i < rows.rows().size(); i++) {
                    RowRef ref = rows.ref(i);
                    if (!(rows.rows().get(i) instanceof Map<?, ?> m)) throw ref.bad("(item)", "a JSON object", rows.rows().get(i));
                    @SuppressWarnings("unchecked") Map<String, Object> row = (Map<String, Object>) m;
                    Item it = mapper.map(row, ref);
                    if (it == null) continue;
                    if (!seen.add(it.id())) throw ref.bad("id", "unique within the split", it.id());
                    items.add(it);
                }
                if (limit > 0 && items.size() > limit) items = items.subList(0, limit);
                splits.put(s, List.copyOf(items));
            }
            if (splits.get("train").isEmpty()) {
                throw new ConfigException(cut == null ? "split " + dir.resolve("train") + " is empty (no items); training needs at least one"
                        : cut.source() + ": the ratio split leaves the train split empty; training needs at least one item");
            }
            return new SplitDataLoader(env, splits, dir, cut == null ? null : cut.splits());
        }
    }
}
