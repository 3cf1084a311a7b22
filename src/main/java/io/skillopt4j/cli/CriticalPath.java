package io.skillopt4j.cli;

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
 * Immutable (stateless). Reads a finished run folder and returns its sequential phases — each a set of model
 * calls the trainer issues together — with their call counts, so the critical-path bound is
 * Σ phases ⌈calls / workers⌉ × latency: what a perfect scheduler would need at that latency.
 */
final class CriticalPath {
    private CriticalPath() {}

    /** One phase: its name, number of calls and the pool size that serves it. */
    record Phase(String name, int calls, int workers) {
        int waves() { return calls == 0 ? 0 : (calls + workers - 1) / workers; }
    }

    static List<Phase> phases(Path run, int workers, int analystWorkers, int mergeBatch) {
        List<Phase> out = new ArrayList<>();
        rollout(out, "baseline selection", run.resolve("selection_eval_baseline"), workers);
        List<Path> steps = list(run.resolve("steps"));
        for (Path step : steps) {
            String n = step.getFileName().toString();
            rollout(out, n + " rollout", step.resolve("rollout"), workers);
            List<Path> patches = list(step.resolve("patches"));
            int fail = (int) patches.stream().filter(p -> p.getFileName().toString().startsWith("minibatch_fail")).count();
            int succ = (int) patches.stream().filter(p -> p.getFileName().toString().startsWith("minibatch_succ")).count();
            out.add(new Phase(n + " reflect", fail + succ, analystWorkers));
            mergeLevels(out, n + " merge failure", fail, mergeBatch, analystWorkers);
            mergeLevels(out, n + " merge success", succ, mergeBatch, analystWorkers);
            if (fail > 0 && succ > 0) out.add(new Phase(n + " merge final", 1, 1));
            Object ranked = readJson(step.resolve("ranked_edits.json"));
            if (ranked instanceof Map<?, ?> m && m.containsKey("ranking_details")) out.add(new Phase(n + " ranking", 1, 1));
            if (Files.exists(step.resolve("lr_decision.json"))) out.add(new Phase(n + " lr", 1, 1));
            rollout(out, n + " selection", step.resolve("selection_eval"), workers);
        }
        for (Path ep : list(run.resolve("slow_update"))) {
            rollout(out, "slow " + ep.getFileName() + " prev", ep.resolve("rollout_prev"), workers);
            rollout(out, "slow " + ep.getFileName() + " curr", ep.resolve("rollout_curr"), workers);
            if (readJson(ep.resolve("slow_result.json")) instanceof Map<?, ?> m && !"inject_placeholder".equals(m.get("action")))
                out.add(new Phase("slow " + ep.getFileName() + " update", 1, 1));
        }
        for (Path ep : list(run.resolve("meta_skill"))) {
            rollout(out, "meta " + ep.getFileName() + " prev", ep.resolve("rollout_prev"), workers);
            rollout(out, "meta " + ep.getFileName() + " curr", ep.resolve("rollout_curr"), workers);
            if (readJson(ep.resolve("meta_skill_result.json")) instanceof Map<?, ?> m && !"skip_first_epoch".equals(m.get("action")))
                out.add(new Phase("meta " + ep.getFileName(), 1, 1));
        }
        for (String d : List.of("final_selection_eval", "test_eval_baseline", "test_eval", "test_eval_final"))
            rollout(out, d, run.resolve(d), workers);
        return out;
    }

    /** Upstream's hierarchical merge: levels of chunks of mergeBatch, singleton chunks pass through uncalled. */
    private static void mergeLevels(List<Phase> out, String name, int n, int mergeBatch, int workers) {
        int level = 0, size = Math.max(2, mergeBatch);
        while (n > 1) {
            int chunks = (n + size - 1) / size;
            int calls = n / size + (n % size >= 2 ? 1 : 0);
            out.add(new Phase(name + " L" + (++level), calls, workers));
            n = chunks;
        }
    }

    private static void rollout(List<Phase> out, String name, Path dir, int workers) {
        Path f = dir.resolve("results.jsonl");
        if (!Files.exists(f)) return;
        try (Stream<String> lines = Files.lines(f)) {
            out.add(new Phase(name, (int) lines.filter(l -> !l.isBlank()).count(), workers));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
