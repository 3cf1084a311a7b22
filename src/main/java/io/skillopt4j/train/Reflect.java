package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.ItemTraces;
import io.skillopt4j.env.PyRandom;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Thread-safe. Upstream's {@code run_minibatch_reflect}: one analyst call per minibatch, in minibatch order. */
public record Reflect(TrainSettings settings, Optimizer optimizer, Prompts prompts, RunWriter writer,
                      ExecutorService pool) {
    /** Immutable. What one reflect call needs; {@code traces}: the rollout's items in memory (read from disk when absent). */
    public record Input(List<RolloutResult> results, String skill, Path predictionDir, Path patchesDir, long batchSeed,
                        String stepBufferContext, String metaContext, ItemTraces traces) {
        public Input { traces = traces == null ? new ItemTraces() : traces; }

        /** An input whose trajectories are read from {@code predictionDir}. */
        public Input(List<RolloutResult> results, String skill, Path predictionDir, Path patchesDir, long batchSeed,
                     String stepBufferContext, String metaContext) {
            this(results, skill, predictionDir, patchesDir, batchSeed, stepBufferContext, metaContext, null);
        }
    }


    /** Immutable. A reflect's analysts under way: each group's raw patches once all of its calls are done. */
    public record Pending(CompletableFuture<List<Map<String, Object>>> failures, CompletableFuture<List<Map<String, Object>>> successes) {
        /** All raw patches, failure minibatches first, as {@link #run} returns them. */
        public CompletableFuture<List<Map<String, Object>>> all() {
            return failures.thenCombine(successes,
                    (f, s) -> java.util.stream.Stream.concat(f.stream(), s.stream()).toList());
        }
    }

    /** Runs the analysts and returns the raw patches (upstream's {@code RawPatch} maps) in minibatch order. */
    public List<Map<String, Object>> run(Input in) { return join(start(in).all()); }

    /** Starts the analysts on the pool, failure minibatches first as upstream submits them, and returns at once. */
    public Pending start(Input in) {
        List<RolloutResult> fails = in.results().stream().filter(RolloutResult::isFailure).toList();
        List<RolloutResult> succs = in.results().stream().filter(r -> !settings.failureOnly() && r.isSuccess()).toList();
        CompletableFuture<List<Map<String, Object>>> f = submit(new PyRandom(in.batchSeed()).shuffled(fails), true, in);
        return new Pending(f, submit(new PyRandom(in.batchSeed() + 1).shuffled(succs), false, in));
    }

    @SuppressWarnings("unchecked")
    private CompletableFuture<List<Map<String, Object>>> submit(List<RolloutResult> items, boolean failure, Input in) {
        int m = settings.minibatchSize();
        List<CompletableFuture<Map<String, Object>>> futures = new ArrayList<>();
        for (int start = 0, idx = 0; start < items.size(); start += m, idx++) {
            List<RolloutResult> chunk = items.subList(start, Math.min(items.size(), start + m));
            String tag = RunPaths.minibatchTag(failure, idx);
            Path file = in.patchesDir().resolve(tag + ".json");
            Object cached = Trajectories.readJson(file);
            futures.add(cached instanceof Map<?, ?> c ? CompletableFuture.completedFuture((Map<String, Object>) c)
                    : CompletableFuture.supplyAsync(() -> analyse(chunk, failure, tag, file, in), pool));
        }
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).thenApply(v -> futures.stream()
                .map(CompletableFuture::join).filter(java.util.Objects::nonNull).toList());
    }

    private Map<String, Object> analyse(List<RolloutResult> chunk, boolean failure, String tag, Path file, Input in) {
        try {
            String text = new Trajectories(settings.codexTrace(), settings.claudeTrace()).format(chunk, in.predictionDir(), in.traces());
            if (text.isEmpty()) return null;
            String user = userMessage(in, chunk.size(), failure, text);
            boolean full = settings.updateMode() == UpdateMode.FULL_REWRITE;
            String system = Prompts.forSkill(systemPrompt(failure), in.skill(), full);
            Map<String, Object> parsed = optimizer.json("analyst", tag, system, user, full ? 64000 : 16384, null, 3).orElse(null);
            if (parsed == null) return null;
            Map<String, Object> raw = shape(parsed, failure, tag);
            if (raw != null) writer.artefact(file, raw);
            return raw;
        } catch (RuntimeException e) {
            optimizer.record("analyst", tag, "error", e.toString());
            return null;
        }
    }

    /** Applies upstream's post-processing of one analyst reply; null when it carries nothing usable. */
    @SuppressWarnings("unchecked")
    Map<String, Object> shape(Map<String, Object> parsed, boolean failure, String tag) {
        boolean notesAllowed = failure ? settings.skillAware() : settings.successNotes();
        List<String> notes = notesAllowed ? Appendix.extractNotes(parsed.get("appendix_notes")) : List.of();
        Object patch = parsed.get("patch");
        if (patch instanceof Map<?, ?> pm) {
            Map<String, Object> raw = new LinkedHashMap<>(parsed);
            Map<String, Object> p = new LinkedHashMap<>((Map<String, Object>) pm);
            String key = settings.updateMode().payloadKey();
            int budget = settings.editBudget();
            if (settings.updateMode() != UpdateMode.FULL_REWRITE && p.get(key) instanceof List<?> l && l.size() > budget)
                p.put(key, new ArrayList<>(l.subList(0, Math.max(0, budget))));
            Json.put(raw, "patch", p, "source_type", failure ? "failure" : "success");
            if (notesAllowed) raw.put("appendix_notes", notes);
            return raw;
        }
        if (notesAllowed && !notes.isEmpty()) {
            Map<String, Object> lapse = Json.obj("reasoning", "execution-lapse only", "edits", List.of());
            return Json.obj("source_type", "failure", "patch", lapse, "appendix_notes", notes);
        }
        optimizer.record("analyst", tag, "no_patch", "reply has no \"patch\" object");
        return null;
    }

    String systemPrompt(boolean failure) {
        String suffix = settings.updateMode().promptSuffix();
        String base = prompts.withOverride((failure ? "analyst_error" : "analyst_success") + suffix);
        if (settings.skillAware() && settings.updateMode() != UpdateMode.FULL_REWRITE) {
            base = base + Prompts.generic(failure ? "skill_aware_error" : "skill_aware_success");
        }
        return base;
    }

    String userMessage(Input in, int n, boolean failure, String trajectoriesText) {
        StringBuilder b = new StringBuilder("## Current Skill\n").append(Prompts.view(in.skill())).append("\n\n");
        int l = settings.editBudget();
        b.append(switch (settings.updateMode()) {
            case PATCH -> "## Edits Budget\nProduce at most L=" + l + " edits.";
            case REWRITE -> "## Suggestions Budget\nProduce at most L=" + l + " suggestions.";
            default -> "## Update Format\nReturn exactly one complete replacement skill as the single item of "
                    + "`patch.skill_candidates`, with `title`, `change_summary` and `new_skill` (the whole document).";
        });
        if (in.stepBufferContext() != null && !in.stepBufferContext().isBlank()) b.append("\n\n").append(in.stepBufferContext().strip());
        if (in.metaContext() != null && !in.metaContext().isBlank()) b.append("\n\n").append(MetaSkill.context(in.metaContext()));
        b.append("\n\n").append(failure ? "## Failed Trajectories (" : "## Successful Trajectories (").append(n).append(" total)\n");
        b.append(trajectoriesText);
        return b.toString();
    }

    static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StopRequested();
        } catch (ExecutionException e) {
            throw cause(e);
        }
    }

    /** The failure's cause to rethrow: itself when unchecked, else wrapped. */
    static RuntimeException cause(ExecutionException e) {
        if (e.getCause() instanceof RuntimeException re) return re;
        if (e.getCause() instanceof Error er) throw er;
        return new IllegalStateException(e.getCause());
    }
}
