package io.skillopt4j.bench;

import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Stateless. A finished run's sequential phases (model calls the trainer issues together) with their call counts,
 * for the critical-path bound Σ phases ⌈calls / workers⌉ × latency that a perfect scheduler would need.
 */
final class CriticalPath {
    private CriticalPath() {}

    /** One phase: its name, number of calls and the pool size that serves it. */
    record Phase(String name, int calls, int workers) {
        int waves() { return calls == 0 ? 0 : (calls + workers - 1) / workers; }
    }

    static List<Phase> phases(Path run, int workers, int analystWorkers) {
        List<Phase> out = new ArrayList<>();
        @SuppressWarnings("unchecked") // config.json is the run's flat config: a JSON object, string keys
        FlatConfig cfg = FlatConfig.of(readJson(run.resolve("config.json")) instanceof Map<?, ?> m ? (Map<String, ?>) m : Map.of());
        rollout(out, "baseline selection", run.resolve("selection_eval_baseline"), workers);
        for (Path step : list(run.resolve("steps"))) {
            String n = step.getFileName().toString();
            rollout(out, n + " rollout", step.resolve("rollout"), workers);
            Map<?, ?> tokens = readJson(step.resolve("step_record.json")) instanceof Map<?, ?> rec && rec.get("tokens") instanceof Map<?, ?> t ? t : Map.of();
            // skip_no_patches records keep upstream's empty tokens: count their analyst calls from the minibatches
            int analysts = tokens.isEmpty() ? minibatches(cfg, step.resolve("rollout")) : calls(tokens, "analyst");
            out.add(new Phase(n + " reflect", analysts, analystWorkers));
            // merge groups run in turn (failure, success, final); within merge_batch_size each is one call: a wave
            for (int i = 0; i < calls(tokens, "merge"); i++) out.add(new Phase(n + " merge " + (i + 1), 1, 1));
            if (calls(tokens, "ranking") > 0) out.add(new Phase(n + " ranking", calls(tokens, "ranking"), 1));
            if (calls(tokens, "lr_autonomous") > 0) out.add(new Phase(n + " lr", calls(tokens, "lr_autonomous"), 1));
            rollout(out, n + " selection", step.resolve("selection_eval"), workers);
        }
        for (Path ep : list(run.resolve("slow_update"))) {
            comparison(out, "slow " + ep.getFileName(), ep, workers);
            if (readJson(ep.resolve("slow_result.json")) instanceof Map<?, ?> m && !"inject_placeholder".equals(m.get("action")))
                out.add(new Phase("slow " + ep.getFileName() + " update", 1, 1));
        }
        for (Path ep : list(run.resolve("meta_skill"))) {
            comparison(out, "meta " + ep.getFileName(), ep, workers);
            if (readJson(ep.resolve("meta_skill_result.json")) instanceof Map<?, ?> m && !"skip_first_epoch".equals(m.get("action")))
                out.add(new Phase("meta " + ep.getFileName(), 1, 1));
        }
        for (String d : List.of("final_selection_eval", "test_eval_baseline", "test_eval", "test_eval_final"))
            rollout(out, d, run.resolve(d), workers);
        return out;
    }

    /** A longitudinal comparison: previous then current skill, then (policy {@code changed}) one-call top-ups. */
    private static void comparison(List<Phase> out, String name, Path ep, int workers) {
        rollout(out, name + " prev", ep.resolve("rollout_prev"), workers);
        rollout(out, name + " curr", ep.resolve("rollout_curr"), workers);
        for (Path t : list(ep.resolve("rollout_prev").resolve("topup"))) {
            rollout(out, name + " top-up prev " + t.getFileName(), t, workers);
            rollout(out, name + " top-up curr " + t.getFileName(), ep.resolve("rollout_curr").resolve("topup").resolve(t.getFileName()), workers);
        }
    }

    /** Analyst calls of a step's reflect: ⌈failures/minibatch_size⌉ + ⌈successes/minibatch_size⌉ (none with failure_only). */
    private static int minibatches(FlatConfig cfg, Path rolloutDir) {
        int size = Math.max(1, Setting.integer("minibatch_size").of(cfg));
        boolean failureOnly = Setting.bool("failure_only").of(cfg);
        int fails = 0, succs = 0;
        for (RolloutResult r : RolloutRunner.readResults(rolloutDir.resolve("results.jsonl")).values()) {
            if (r.isFailure()) fails++;
            if (!failureOnly && r.isSuccess()) succs++;
        }
        return (fails + size - 1) / size + (succs + size - 1) / size;
    }

    private static int calls(Map<?, ?> tokens, String stage) {
        return tokens.get(stage) instanceof Map<?, ?> m && m.get("calls") instanceof Number c ? c.intValue() : 0;
    }

    private static void rollout(List<Phase> out, String name, Path dir, int workers) {
        Path f = dir.resolve("results.jsonl");
        if (Files.exists(f)) out.add(new Phase(name, RolloutRunner.readResults(f).size(), workers));
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object readJson(Path f) {
        try {
            return Files.exists(f) ? Json.read(f) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
