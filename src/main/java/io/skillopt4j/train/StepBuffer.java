package io.skillopt4j.train;

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

/**
 * Not thread-safe; one per run, used by the training thread. The per-epoch step buffer (upstream
 * {@code _extract_failure_patterns} / {@code _format_step_buffer}): one entry per evaluated step with its
 * failure patterns and, for rejects, the rejected edits; rendered as "## Previous Steps in This Epoch".
 */
public final class StepBuffer {
    private final List<Map<String, Object>> entries = new ArrayList<>();

    /** Empties the buffer (epoch start). */
    public void clear() { entries.clear(); }

    /** Adds an entry (also used to restore the buffer from trajectory_digest.json files on resume). */
    public void add(Map<String, Object> entry) { entries.add(entry); }

    public List<Map<String, Object>> entries() { return List.copyOf(entries); }

    /** Builds a step's entry (§4.9). {@code ranked} may be null; rejected edits are added for reject actions. */
    public static Map<String, Object> entry(int step, String action, List<RolloutResult> results, Path stepDir,
                                            Map<String, Object> ranked, UpdateMode mode, double scoreBefore, double scoreAfter) {
        List<RolloutResult> fails = results.stream().filter(RolloutResult::isFailure).toList();
        Map<String, Map<String, Object>> groups = new LinkedHashMap<>();
        for (RolloutResult r : fails) {
            String reason = r.failReason();
            String prefix = reason.isEmpty() ? "unknown" : (reason.contains(":") ? reason.substring(0, reason.indexOf(':')) : reason);
            Map<String, Object> g = groups.computeIfAbsent(prefix, k -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("pattern", k);
                m.put("count", 0);
                m.put("task_ids", new ArrayList<String>());
                return m;
            });
            g.put("count", (Integer) g.get("count") + 1);
            @SuppressWarnings("unchecked") List<String> ids = (List<String>) g.get("task_ids");
            ids.add(r.id());
        }
        List<String> descriptions = analystDescriptions(stepDir);
        List<Map<String, Object>> patterns = new ArrayList<>();
        int k = 0;
        for (Map<String, Object> g : groups.values()) {
            if (k < descriptions.size()) g.put("pattern", descriptions.get(k));
            k++;
            patterns.add(g);
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("step", step);
        e.put("action", action);
        e.put("n_total", results.isEmpty() ? 1 : results.size());
        e.put("n_fail", fails.size());
        e.put("failure_patterns", patterns);
        if (action.contains("reject") && ranked != null) {
            e.put("score_before", scoreBefore);
            e.put("score_after", scoreAfter);
            List<Map<String, Object>> rejected = new ArrayList<>();
            for (Object o : Aggregate.items(ranked, mode.payloadKey())) {
                if (!(o instanceof Map<?, ?> m)) continue;
                Map<String, Object> r = new LinkedHashMap<>();
                List<String> keys = switch (mode) {
                    case PATCH -> List.of("op", "content", "target");
                    case REWRITE -> List.of("type", "title", "instruction");
                    case FULL_REWRITE -> List.of("title", "change_summary", "source_type");
                };
                for (String key : keys) r.put(key, m.get(key));
                rejected.add(r);
            }
            e.put("rejected_edits", rejected);
        }
        return e;
    }

    /** Reads "{failure_type}: {description}" from the step's failure minibatch files, sorted by name. */
    static List<String> analystDescriptions(Path stepDir) {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(stepDir, 3)) {
            s.filter(p -> p.getFileName().toString().matches("minibatch_fail_\\d+\\.json"))
                    .filter(p -> p.getParent().getFileName().toString().equals("patches"))
                    .forEach(files::add);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        files.sort((a, b) -> stepDir.relativize(a).toString().compareTo(stepDir.relativize(b).toString()));
        List<String> out = new ArrayList<>();
        for (Path f : files) {
            try {
                if (!(Json.read(f) instanceof Map<?, ?> m) || !(m.get("failure_summary") instanceof List<?> l)) continue;
                for (Object o : l) {
                    if (!(o instanceof Map<?, ?> fs)) continue;
                    String type = fs.get("failure_type") == null ? "" : String.valueOf(fs.get("failure_type"));
                    String desc = fs.get("description") == null ? "" : String.valueOf(fs.get("description"));
                    if (type.isEmpty() && desc.isEmpty()) continue;
                    out.add(desc.isEmpty() ? type : type + ": " + desc);
                }
            } catch (RuntimeException ignored) {
                // malformed analyst files are ignored, as upstream
            }
        }
        return out;
    }

    /** Renders the buffer as the "## Previous Steps in This Epoch" section, or "" when empty. */
    @SuppressWarnings("unchecked")
    public String format() {
        if (entries.isEmpty()) return "";
        StringBuilder b = new StringBuilder("## Previous Steps in This Epoch\n")
                .append("Earlier steps of this epoch, their failure patterns and the edits the gate rejected; "
                        + "do not propose the rejected edits again unchanged.\n");
        for (Map<String, Object> e : entries) {
            b.append("\n### Step ").append(e.get("step")).append(" — ").append(String.valueOf(e.get("action")).toUpperCase(java.util.Locale.ROOT))
                    .append(" (").append(e.get("n_fail")).append('/').append(e.get("n_total")).append(" failed)\n");
            for (Object o : (List<Object>) e.getOrDefault("failure_patterns", List.of())) {
                Map<String, Object> p = (Map<String, Object>) o;
                b.append("- \"").append(p.get("pattern")).append("\" (×").append(p.get("count")).append(", tasks: ")
                        .append(String.join(", ", (List<String>) p.get("task_ids"))).append(")\n");
            }
            if (e.containsKey("rejected_edits")) {
                b.append("Rejected edits (score ").append(fmt(e.get("score_before"))).append(" → ").append(fmt(e.get("score_after"))).append("):\n");
                int i = 0;
                for (Object o : (List<Object>) e.get("rejected_edits")) {
                    Map<String, Object> r = (Map<String, Object>) o;
                    i++;
                    if (r.containsKey("op")) {
                        b.append(i).append(". [").append(r.get("op")).append("] target=\"").append(nz(r.get("target")))
                                .append("\" → \"").append(nz(r.get("content"))).append("\"\n");
                    } else if (r.containsKey("type")) {
                        b.append(i).append(". [").append(r.get("type")).append("] \"").append(nz(r.get("title")))
                                .append("\" → \"").append(nz(r.get("instruction"))).append("\"\n");
                    } else {
                        b.append(i).append(". [").append(nz(r.get("source_type"))).append("] \"").append(nz(r.get("title")))
                                .append("\" → ").append(Json.line(r.get("change_summary"))).append('\n');
                    }
                }
            }
        }
        return b.toString();
    }

    private static String nz(Object o) { return o == null ? "" : String.valueOf(o); }

    private static String fmt(Object o) {
        return o instanceof Number n ? String.format(java.util.Locale.ROOT, "%.3f", n.doubleValue()) : String.valueOf(o);
    }
}
