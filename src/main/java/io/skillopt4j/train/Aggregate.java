package io.skillopt4j.train;

import io.skillopt4j.internal.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Thread-safe. Upstream's {@code merge_patches}, the groups merged concurrently (same result), else concatenated. */
public record Aggregate(TrainSettings settings, Optimizer optimizer, ExecutorService pool) {

    /** Merges the normalised failure and success patches into one patch {reasoning, payload}. */
    public Map<String, Object> run(String skill, List<Map<String, Object>> failures, List<Map<String, Object>> successes, String meta) {
        return run(skill, failureGroup(skill, failures, meta), successes, meta);
    }

    /** Starts merging the failure group on a thread of its own; {@link #run(String, CompletableFuture, List, String)} finishes. */
    CompletableFuture<Map<String, Object>> failureGroup(String skill, List<Map<String, Object>> failures, String meta) {
        return CompletableFuture.supplyAsync(() -> hierarchical(skill, failures, "failure", meta), COORDINATOR);
    }

    /** The merge with the failure group's under way ({@link #failureGroup}): the success group, then the final call. */
    Map<String, Object> run(String skill, CompletableFuture<Map<String, Object>> failMerged, List<Map<String, Object>> successes,
                            String meta) {
        String key = settings.updateMode().payloadKey();
        Map<String, Object> succMerged = hierarchical(skill, successes, "success", meta);
        Map<String, Object> fm = Reflect.join(failMerged);
        List<Object> fi = items(fm, key), si = items(succMerged, key);
        if (fi.isEmpty() && si.isEmpty()) return patch("no updates from either group", List.of());
        if (si.isEmpty()) return fm;
        if (fi.isEmpty()) return succMerged;
        String user = metaPrefix(meta) + "## Current Skill\n" + Prompts.view(skill) + "\n\n" + finalGroups(fi.size(), si.size()) + "\n\n"
                + Json.pretty(List.of(fm, succMerged));
        Map<String, Object> reply = call("merge_final", "final", user, skill);
        if (reply != null) return reply;
        return patch("fallback: failure first, then success", java.util.stream.Stream.concat(fi.stream(), si.stream()).toList());
    }

    /** The final merge's group header as upstream words it ("edits" in rewrite mode too). */
    String finalGroups(int nFail, int nSucc) {
        if (settings.updateMode() == UpdateMode.FULL_REWRITE) {
            String label = settings.updateMode().label();
            return "## Two pre-merged candidate groups to combine\nGroup 1 (from failed trajectories): " + nFail + " " + label
                    + "\nGroup 2 (from successful trajectories): " + nSucc + " " + label;
        }
        return "## Two pre-merged patch groups to combine\nGroup 1 (failure-driven, HIGH priority): " + nFail
                + " edits\nGroup 2 (success-driven, lower priority): " + nSucc + " edits";
    }

    private static final java.util.concurrent.Executor COORDINATOR = ThreadPerTask.named("skillopt-merge-coordinator");

    /** Upstream's {@code _hierarchical_merge} for one group. */
    Map<String, Object> hierarchical(String skill, List<Map<String, Object>> group, String kind, String meta) {
        String key = settings.updateMode().payloadKey();
        if (group.isEmpty()) return patch("no patches", List.of());
        if (group.size() == 1) return group.get(0);
        List<Map<String, Object>> current = group;
        int level = 0;
        while (current.size() > 1) {
            level++;
            int size = Math.max(2, settings.mergeBatchSize());
            List<Future<Map<String, Object>>> next = new ArrayList<>();
            int chunkIdx = 0;
            for (int i = 0; i < current.size(); i += size, chunkIdx++) {
                List<Map<String, Object>> chunk = current.subList(i, Math.min(current.size(), i + size));
                if (chunk.size() == 1) {
                    next.add(CompletableFuture.completedFuture(chunk.get(0)));
                    continue;
                }
                int lv = level, ci = chunkIdx;
                next.add(pool.submit(() -> mergeChunk(skill, chunk, kind, lv, ci, meta, key)));
            }
            current = next.stream().map(Reflect::join).toList();
        }
        return current.get(0);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> mergeChunk(String skill, List<Map<String, Object>> chunk, String kind, int level, int idx,
                                           String meta, String key) {
        String user = metaPrefix(meta) + "## Current Skill\n" + Prompts.view(skill) + "\n\n## Patches to merge (" + chunk.size()
                + " total, merge level " + level + ")\n" + Json.pretty(chunk);
        Map<String, Object> reply = call("merge_" + kind, kind + "_level" + level + "_chunk" + idx, user, skill);
        if (reply != null) {
            Map<String, Object> out = new LinkedHashMap<>(reply);
            out.put(key, copied((List<?>) reply.get(key), m -> m.put("merge_level", level)));
            return out;
        }
        List<Object> all = new ArrayList<>();
        for (Map<String, Object> p : chunk) all.addAll(copied(items(p, key), m -> m.putIfAbsent("merge_level", level)));
        return patch("fallback concatenation", all);
    }

    /** {@code items} with each map item copied and passed to {@code fill}; other items as they are. */
    @SuppressWarnings("unchecked")
    private static List<Object> copied(List<?> items, java.util.function.Consumer<Map<String, Object>> fill) {
        return items.stream().map(o -> {
            if (!(o instanceof Map<?, ?> m)) return o;
            Map<String, Object> c = new LinkedHashMap<>((Map<String, Object>) m);
            fill.accept(c);
            return (Object) c;
        }).collect(java.util.stream.Collectors.toCollection(ArrayList::new));
    }

    /** One merge call; null when the reply has no list of objects under the payload key. */
    private Map<String, Object> call(String prompt, String what, String user, String skill) {
        String key = settings.updateMode().payloadKey();
        boolean full = settings.updateMode() == UpdateMode.FULL_REWRITE;
        String system = Prompts.forSkill(Prompts.generic(prompt + settings.updateMode().promptSuffix()), skill, full);
        Map<String, Object> reply = optimizer.json("merge", what, system, user, full ? 64000 : 16384, null, 3).orElse(null);
        if (reply == null) return null;
        if (reply.get(key) instanceof List<?> l && l.stream().allMatch(o -> o instanceof Map)) return reply;
        optimizer.record("merge", what, "bad_shape", "reply has no list of objects under \"" + key + "\"");
        return null;
    }

    static String metaPrefix(String meta) {
        return meta == null || meta.isBlank() ? "" : MetaSkill.context(meta) + "\n\n";
    }

    /** Returns the payload items of a patch (empty when absent). */
    @SuppressWarnings("unchecked")
    static List<Object> items(Map<String, Object> patch, String key) {
        Object o = patch == null ? null : patch.get(key);
        return o instanceof List<?> l ? (List<Object>) l : List.of();
    }

    private Map<String, Object> patch(String reasoning, List<Object> items) {
        return Json.obj("reasoning", reasoning, settings.updateMode().payloadKey(), new ArrayList<>(items));
    }

    /** Upstream's {@code _normalise_patches} for one raw patch; null when it has no payload items. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> normalise(Map<String, Object> raw, String key) {
        Object p = raw.get("patch");
        if (raw.containsKey("patch") && !(p instanceof Map<?, ?>)) return null; // upstream: p.get("patch", p) must be a dict
        Map<String, Object> inner = p instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>(raw);
        if (!(inner.get(key) instanceof List<?> items) || items.isEmpty()) return null;
        String source = raw.get("source_type") == null ? "failure" : String.valueOf(raw.get("source_type"));
        int support = Math.max(java.util.Objects.requireNonNullElse(Select.coerce(raw.get("batch_size")), 0), 1);
        inner.put(key, copied(items, c -> {
            c.putIfAbsent("source_type", source);
            c.putIfAbsent("support_count", support);
        }));
        return inner;
    }
}
