package io.skillopt4j.train;

import io.skillopt4j.config.Coercion;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Not thread-safe; one per run. The per-epoch step buffer (upstream {@code _format_step_buffer}). */
public final class StepBuffer {
    private final List<Map<String, Object>> entries = new ArrayList<>();

    public void clear() { entries.clear(); }

    /** Adds an entry (also restored from trajectory_digest.json files on resume). */
    public void add(Map<String, Object> entry) { entries.add(entry); }

    /** Builds a step's entry (§4.9). {@code ranked} may be null; rejected edits are added for reject actions. */
    public static Map<String, Object> entry(int step, String action, List<RolloutResult> results, Path stepDir,
                                            Map<String, Object> ranked, UpdateMode mode, double scoreBefore, double scoreAfter) {
        List<RolloutResult> fails = results.stream().filter(RolloutResult::isFailure).toList();
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (RolloutResult r : fails) {
            // upstream: r.get("fail_reason", "unknown"), then the part before the first ':' (stripped) when there is one
            String reason = r.fields().containsKey("fail_reason") ? r.str("fail_reason") : "unknown";
            String prefix = reason.contains(":") ? reason.substring(0, reason.indexOf(':')).strip() : reason;
            groups.computeIfAbsent(prefix, k -> new ArrayList<>()).add(r.id());
        }
        List<Object> descriptions = analystDescriptions(stepDir);
        List<Map<String, Object>> patterns = new ArrayList<>();
        groups.forEach((prefix, ids) -> {
            // positional pairing: the k-th description labels the k-th group; an empty one keeps the prefix
            Object d = patterns.size() < descriptions.size() ? descriptions.get(patterns.size()) : null;
            patterns.add(Json.obj("pattern", Select.truthy(d) ? d : prefix, "count", ids.size(),
                    "task_ids", ids));
        });
        Map<String, Object> e = Json.obj("step", step, "action", action,
                "n_total", results.isEmpty() ? 1 : results.size(), "n_fail", fails.size(), "failure_patterns", patterns);
        if (action.contains("reject") && ranked != null && !ranked.isEmpty()) {
            Json.put(e, "score_before", scoreBefore, "score_after", scoreAfter,
                    "rejected_edits", Aggregate.items(ranked, mode.payloadKey()).stream()
                            .filter(o -> o instanceof Map<?, ?>).map(o -> summary((Map<?, ?>) o, mode)).toList());
        }
        return e;
    }

    /** Upstream's {@code short_item_summary}: the few fields of a rejected item, with its defaults. */
    static Map<String, Object> summary(Map<?, ?> m, UpdateMode mode) {
        return switch (mode) {
            case PATCH -> Json.obj("op", get(m, "op", "?"), "content", Coercion.pyStr(get(m, "content", "")),
                    "target", get(m, "target", ""));
            case REWRITE -> Json.obj("type", get(m, "type", "?"), "title", Coercion.pyStr(get(m, "title", "")),
                    "instruction", Coercion.pyStr(get(m, "instruction", "")));
            case FULL_REWRITE -> Json.obj("title", Coercion.pyStr(get(m, "title", "")),
                    "change_summary", m.get("change_summary") instanceof List<?> l
                            ? l.stream().map(Coercion::pyStr).toList() : List.of(),
                    "source_type", get(m, "source_type", ""));
        };
    }

    /** Python's {@code m.get(key, default)}: a key present with null keeps its null. */
    private static Object get(Map<?, ?> m, String key, Object absent) {
        return m.containsKey(key) ? m.get(key) : absent;
    }

    /** Upstream's analyst descriptions; a file upstream can't read adds what came before the problem. */
    static List<Object> analystDescriptions(Path stepDir) {
        List<Path> files = new ArrayList<>(glob(stepDir.resolve("patches")));
        // the batch folders' files in path order: a folder sorts before its longer-named sibling, as its files do
        try (Stream<Path> s = Files.list(stepDir)) {
            s.filter(p -> p.getFileName().toString().startsWith("batch_") && Files.isDirectory(p))
                    .sorted(java.util.Comparator.comparing(Path::toString)).forEach(p -> files.addAll(glob(p.resolve("patches"))));
        } catch (IOException | RuntimeException e) {
            // no step folder yet: no descriptions
        }
        List<Object> out = new ArrayList<>();
        for (Path f : files) {
            try {
                if (!(Json.read(f) instanceof Map<?, ?> m)) continue;
                if (!(get(m, "failure_summary", List.of()) instanceof List<?> l)) continue;
                for (Object o : l) {
                    if (!(o instanceof Map<?, ?> fs)) break; // upstream's fs.get fails here and drops the rest of the file
                    Object type = get(fs, "failure_type", ""), desc = get(fs, "description", "");
                    out.add(Select.truthy(desc) ? Coercion.pyStr(type) + ": " + Coercion.pyStr(desc) : type);
                }
            } catch (RuntimeException ignored) {
                // malformed analyst files are ignored, as upstream
            }
        }
        return out;
    }

    private static List<Path> glob(Path dir) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> { String n = p.getFileName().toString(); return n.startsWith("minibatch_fail_") && n.endsWith(".json"); })
                    .sorted(java.util.Comparator.comparing(Path::toString)).toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** Renders the buffer as the "## Previous Steps in This Epoch" section, or "" when empty. */
    @SuppressWarnings("unchecked")
    public String format() {
        if (entries.isEmpty()) return "";
        StringBuilder b = new StringBuilder("## Previous Steps in This Epoch\n")
                .append("Earlier steps of this epoch, their failure patterns and the edits the gate rejected; "
                        + "do not propose the rejected edits again unchanged, and go after the patterns still unsolved.\n");
        for (Map<String, Object> e : entries) {
            b.append("\n### Step ").append(e.get("step")).append(" — ").append(String.valueOf(e.get("action")).toUpperCase(java.util.Locale.ROOT))
                    .append(" (").append(e.getOrDefault("n_fail", 0)).append('/').append(e.getOrDefault("n_total", "?")).append(" failed)\n");
            for (Object o : (List<Object>) e.getOrDefault("failure_patterns", List.of())) {
                Map<String, Object> p = (Map<String, Object>) o;
                List<String> ids = ((List<Object>) p.get("task_ids")).stream().map(Coercion::pyStr).toList();
                b.append("  - \"").append(Coercion.pyStr(p.get("pattern"))).append("\" (×").append(p.get("count")).append(", tasks: ")
                        .append(String.join(", ", ids)).append(")\n");
            }
            List<Object> rejected = (List<Object>) e.getOrDefault("rejected_edits", List.of());
            if (!rejected.isEmpty()) {
                b.append("  Rejected edits (score ").append(Coercion.pyStr(e.getOrDefault("score_before", "?"))).append(" → ")
                        .append(Coercion.pyStr(e.getOrDefault("score_after", "?"))).append("):\n");
                for (int i = 0; i < rejected.size(); i++) {
                    Map<String, Object> r = (Map<String, Object>) rejected.get(i);
                    b.append("    ").append(i + 1).append(". ");
                    if (r.get("op") != null) {
                        String target = Coercion.pyStr(r.getOrDefault("target", ""));
                        b.append('[').append(Coercion.pyStr(r.get("op"))).append("] ");
                        if (Select.truthy(r.get("target"))) b.append("target=\"").append(target).append("\" → ");
                        b.append('"').append(Coercion.pyStr(r.getOrDefault("content", ""))).append("\"\n");
                    } else {
                        b.append('[').append(Coercion.pyStr(r.getOrDefault("type", "?"))).append("] \"")
                                .append(Coercion.pyStr(r.getOrDefault("title", ""))).append("\" → \"")
                                .append(Coercion.pyStr(r.getOrDefault("instruction", ""))).append("\"\n");
                    }
                }
            }
        }
        return b.toString();
    }
}
