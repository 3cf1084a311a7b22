package io.skillopt4j.env;

import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Stateless. Upstream's ratio split of one raw JSON/JSONL file, shuffled with {@link PyRandom}(split_seed). */
public final class RatioSplit {
    public static final List<String> SPLITS = List.of("train", "val", "test");

    /** Immutable. What a materialisation produced. */
    public record Result(Path dir, Path source, int[] counts) {}

    private RatioSplit() {}

    /** Parses "a:b:c" as upstream: empty parts dropped, exactly three base-10 positive integers. */
    public static int[] parseRatio(String ratio) {
        String repr = "'" + ratio + "'";
        List<String> parts = Arrays.stream(String.valueOf(ratio).split(":", -1)).map(String::trim).filter(p -> !p.isEmpty()).toList();
        if (parts.size() != 3) throw ConfigException.badValue("", "split_ratio", ratio, "in train:val:test form like \"2:1:7\" (quote it in YAML)");
        int[] w;
        try {
            w = parts.stream().mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new ConfigException("split_ratio must contain integers, got " + repr);
        }
        for (int x : w) if (x <= 0) throw new ConfigException("split_ratio parts must be positive, got " + repr);
        return w;
    }

    /** Largest-remainder apportionment of {@code total} by {@code weights} (ties: larger weight, then index). */
    public static int[] counts(int total, int[] weights) {
        double sum = Arrays.stream(weights).sum();
        int n = weights.length;
        double[] raw = new double[n];
        int[] out = new int[n];
        int assigned = 0;
        for (int i = 0; i < n; i++) {
            raw[i] = total * weights[i] / sum;
            out[i] = (int) Math.floor(raw[i]);
            assigned += out[i];
        }
        Integer[] order = java.util.stream.IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -(raw[i] - Math.floor(raw[i])))
                .thenComparingInt(i -> -weights[i]));
        for (int k = 0; k < total - assigned; k++) out[order[k % n]]++;
        return out;
    }

    /** Reads raw items: a JSON array, an object with a {@code data} array, an object (its values), else JSONL. */
    public static List<Object> readRaw(Path path) {
        Path file = resolveRawFile(path);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read data_path " + file + ": " + e.getMessage());
        }
        try {
            Object o = Json.mapper().reader().with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(text, Object.class);
            if (o instanceof List<?> l) return new ArrayList<>(l);
            if (o instanceof Map<?, ?> m) {
                if (m.get("data") instanceof List<?> l) return new ArrayList<>(l);
                return new ArrayList<>(m.values());
            }
        } catch (IOException notWholeJson) {
            // fall through to JSONL, as upstream does
        }
        List<Object> rows = new ArrayList<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            try {
                rows.add(Json.parse(lines[i]));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(file + ": line " + (i + 1) + ": not JSON or JSONL (" + e.getMessage().replace('\n', ' ') + ")");
            }
        }
        return rows;
    }

    private static Path resolveRawFile(Path path) {
        if (!Files.exists(path)) throw new ConfigException("data_path " + path + " does not exist (expected a JSON/JSONL file)");
        if (!Files.isDirectory(path)) return path;
        if (SPLITS.stream().anyMatch(s -> Files.isDirectory(path.resolve(s)))) {
            throw new ConfigException("data_path " + path + " already holds train/val/test; use split_mode=split_dir with split_dir=" + path);
        }
        List<Path> found;
        try (Stream<Path> st = Files.list(path)) {
            found = st.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.size() != 1) {
            throw new ConfigException("expected data_path to be one JSON/JSONL file or a directory containing exactly one such file, got: "
                    + path + " (" + found.size() + " found)");
        }
        return found.get(0);
    }

    /** The default output folder: {@code <outRoot>/_generated_splits/<env>_<a-b-c>_seed<seed>}. */
    public static Path defaultDir(Path outRoot, String env, String ratio, long seed) {
        String tag = String.join("-", Arrays.stream(parseRatio(ratio)).mapToObj(String::valueOf).toList());
        return outRoot.toAbsolutePath().normalize().resolve("_generated_splits").resolve(env + "_" + tag + "_seed" + seed);
    }

    /** Immutable. A ratio split cut in memory, with each row's 0-based position in the raw file (for errors). */
    public record Cut(GeneratedSplits splits, Path source, List<List<Integer>> positions) {}

    /** Shuffles and cuts the raw file in memory (nothing is written); {@code outDir} is where the split folders would go. */
    public static Cut cut(Path dataPath, String ratio, long seed, Path outDir) {
        int[] w = parseRatio(ratio);
        Path abs = dataPath.toAbsolutePath().normalize();
        Path file = resolveRawFile(abs);
        List<Object> raw = readRaw(file);
        if (raw.isEmpty()) throw new ConfigException("No raw items available for ratio split from " + abs);
        // shuffling the positions gives the permutation shuffling the rows would (it depends only on the size)
        List<Integer> order = new PyRandom(seed).shuffled(java.util.stream.IntStream.range(0, raw.size()).boxed().toList());
        int[] c = counts(order.size(), w);
        List<List<?>> rows = new ArrayList<>();
        List<List<Integer>> positions = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < 3; i++) {
            List<Integer> p = List.copyOf(order.subList(start, start + c[i]));
            positions.add(p);
            rows.add(p.stream().map(raw::get).toList());
            start += c[i];
        }
        Map<String, Object> manifest = Json.obj("source_data_path", abs.toString(), "split_mode", "ratio",
                "split_ratio", ratio, "split_seed", seed, "counts", Json.obj("train", c[0], "val", c[1], "test", c[2]));
        return new Cut(new GeneratedSplits(outDir, rows, manifest), file, List.copyOf(positions));
    }

    /** Shuffles, cuts and writes the split folders and manifest under {@code outDir}; returns the counts. */
    public static Result materialize(Path dataPath, String ratio, long seed, Path outDir) {
        Cut cut = cut(dataPath, ratio, seed, outDir);
        cut.splits().write();
        return new Result(outDir, dataPath.toAbsolutePath().normalize(), cut.positions().stream().mapToInt(List::size).toArray());
    }
}
