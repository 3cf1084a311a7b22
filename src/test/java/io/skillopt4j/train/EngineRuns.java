package io.skillopt4j.train;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Test fixture for the engine tests: a small house-rules training (every stage: rollout, analysts, merge, rank,
 * update, gate, slow update, meta skill, test evaluation) through the openai_compatible backend against a
 * simulator URL, and a run-folder comparison with {@code run_diff.py}'s semantics that also keeps token counts.
 */
public final class EngineRuns {
    /** Keys that measure time or name the run folder (run_diff's volatile set minus tokens and models, which must agree). */
    private static final Pattern TIMED = Pattern.compile("(time|wall|duration|elapsed|_s$|_ms$|timestamp|started|finished|date|latency|path|dir$|root)",
            Pattern.CASE_INSENSITIVE);

    private EngineRuns() {}

    /** The demo config shrunk to a few steps; {@code overrides} are {@code key=value} items. */
    public static FlatConfig config(Path outRoot, String... overrides) {
        List<String> all = new ArrayList<>(List.of("env.house_rules_per_category=4", "train.batch_size=8", "train.num_epochs=2",
                "optimizer.slow_update_samples=6", "gradient.minibatch_size=4", "env.workers=4", "evaluation.test_env_num=12"));
        all.addAll(List.of(overrides));
        List<ConfigRequest.Override> os = new ArrayList<>(ConfigRequest.parseOverrides(all));
        os.add(ConfigRequest.Override.typed("env.out_root", outRoot.toString()));
        return ConfigResolver.system().resolve(new ConfigRequest(Path.of("configs/demo/default.yaml"), Map.of(), os, Map.of(), false)).flat();
    }

    /** The environment a run's backends see: the simulator's address only. */
    public static Map<String, String> simEnv(String simUrl) {
        return Map.of("OPENAI_COMPATIBLE_BASE_URL", simUrl, "OPENAI_COMPATIBLE_API_KEY", "sk-sim");
    }

    /** Trains {@code cfg} into {@code out} on {@code engine} (null = engine.name of the config). */
    public static TrainingResult train(FlatConfig cfg, Path out, String simUrl, ExecutionEngine.Factory engine) {
        ModelRoles roles = Backends.roles(cfg, simEnv(simUrl));
        Benchmark b = Benchmarks.create(cfg.string("env", ""), new BenchmarkContext(cfg, roles, out));
        return Trainer.builder().config(cfg).roles(roles).benchmark(b).outRoot(out).engine(engine).build().train();
    }

    /**
     * Differences between two run folders: file sets (without {@code engine/}, the engine's own bookkeeping, and
     * config.json, which names the engine), JSON values without timings, JSONL rows by id, other files byte for byte.
     */
    public static List<String> diff(Path a, Path b) {
        TreeSet<String> fa = files(a), fb = files(b);
        List<String> out = new ArrayList<>();
        for (String f : fa) if (!fb.contains(f)) out.add("only in " + a + ": " + f);
        for (String f : fb) if (!fa.contains(f)) out.add("only in " + b + ": " + f);
        for (String f : fa) {
            if (!fb.contains(f)) continue;
            Object x = load(a.resolve(f)), y = load(b.resolve(f));
            if (!x.equals(y)) out.add(f + " differs:\n  " + String.valueOf(x).substring(0, Math.min(400, String.valueOf(x).length()))
                    + "\n  " + String.valueOf(y).substring(0, Math.min(400, String.valueOf(y).length())));
        }
        return out;
    }

    private static TreeSet<String> files(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            TreeSet<String> out = new TreeSet<>();
            s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(f -> !f.startsWith("engine/") && !f.equals("config.json") && !f.startsWith(".cache/") && !f.endsWith(".lock"))
                    .forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object load(Path f) {
        try {
            String name = f.getFileName().toString();
            if (name.equals("cost_ledger.jsonl")) return ledgerTotals(f);
            if (name.endsWith(".jsonl")) {
                List<String> rows = new ArrayList<>();
                for (String line : Files.readAllLines(f)) if (!line.isBlank()) rows.add(Json.compact(timeless(Json.parse(line))));
                rows.sort(null); // rows are appended in completion order
                return rows;
            }
            if (name.endsWith(".json")) return timeless(Json.read(f));
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ledger per phase/role/stage/model: calls made elsewhere come back as one entry per cell, not one per call. */
    private static Object ledgerTotals(Path f) throws IOException {
        Map<String, long[]> sums = new java.util.TreeMap<>();
        Map<String, Double> usd = new java.util.TreeMap<>();
        for (String line : Files.readAllLines(f)) {
            if (line.isBlank()) continue;
            Map<String, Object> e = Json.parseObject(line);
            String k = e.get("phase") + "/" + e.get("role") + "/" + e.get("stage") + "/" + e.get("model");
            long[] s = sums.computeIfAbsent(k, x -> new long[4]);
            s[0] += e.get("calls") instanceof Number n ? n.longValue() : 1;
            s[1] += ((Number) e.get("prompt_tokens")).longValue();
            s[2] += ((Number) e.get("cached_tokens")).longValue();
            s[3] += ((Number) e.get("completion_tokens")).longValue();
            usd.merge(k, e.get("usd") instanceof Number n ? n.doubleValue() : 0.0, Double::sum);
        }
        Map<String, Object> out = new java.util.TreeMap<>();
        sums.forEach((k, s) -> out.put(k, List.of(s[0], s[1], s[2], s[3], Math.round(usd.get(k) * 1e9))));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object timeless(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) m).forEach((k, v) -> { if (!TIMED.matcher(k).find()) out.put(k, timeless(v)); });
            return out;
        }
        if (o instanceof List<?> l) return l.stream().map(EngineRuns::timeless).toList();
        return o;
    }
}
