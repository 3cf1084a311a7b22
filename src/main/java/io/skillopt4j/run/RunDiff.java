package io.skillopt4j.run;

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
 * Stateless. Compares two run folders of one deterministic workload as {@code run_diff.py} does (../shared/bench), but
 * token counts must agree too: engines and worker counts change nothing but the wall time.
 */
public final class RunDiff {
    /** Keys that measure time, name the run folder or echo the config (run_diff's volatile set minus tokens and models). */
    private static final Pattern TIMED = Pattern.compile("(^config$|time|wall|duration|elapsed|_s$|_ms$|timestamp|started|finished|date|latency|path|dir$|root)",
            Pattern.CASE_INSENSITIVE);

    private RunDiff() {}

    /**
     * Differences in file sets (without {@code engine/}, config.json and token_usage.jsonl, which name engine and
     * sessions), JSON values without timings, JSONL rows, other files byte for byte.
     */
    public static List<String> of(Path a, Path b) {
        TreeSet<String> fa = files(a), fb = files(b);
        List<String> out = new ArrayList<>();
        for (String f : fa) if (!fb.contains(f)) out.add("only in " + a + ": " + f);
        for (String f : fb) if (!fa.contains(f)) out.add("only in " + b + ": " + f);
        for (String f : fa) {
            if (!fb.contains(f)) continue;
            Object x = load(a.resolve(f)), y = load(b.resolve(f));
            if (x.equals(y)) continue;
            if (x instanceof List<?> rx && y instanceof List<?> ry) { // JSONL: the rows one side has more often than the other
                List<Object> onlyA = new ArrayList<>(rx), onlyB = new ArrayList<>(ry);
                for (Object r : ry) onlyA.remove(r);
                for (Object r : rx) onlyB.remove(r);
                out.add(f + " differs: " + rx.size() + " vs " + ry.size() + " rows; only in the first: " + clip(onlyA) + "; only in the second: " + clip(onlyB));
            } else {
                out.add(f + " differs:\n  " + clip(x) + "\n  " + clip(y));
            }
        }
        return out;
    }

    private static String clip(Object o) { return String.valueOf(o).substring(0, Math.min(400, String.valueOf(o).length())); }

    private static TreeSet<String> files(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(f -> !f.startsWith("engine/") && !f.equals("config.json") && !f.startsWith(".cache/") && !f.endsWith(".lock")
                            && !f.equals(io.skillopt4j.backend.UsageJournal.FILE))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object load(Path f) {
        try {
            String name = f.getFileName().toString();
            if (name.endsWith(".jsonl")) { // sorted: rows are appended in completion order
                return Files.readAllLines(f).stream().filter(l -> !l.isBlank()).map(l -> Json.compact(timeless(Json.parse(l))))
                        .sorted().toList();
            }
            if (name.endsWith(".json")) return timeless(Json.read(f));
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object timeless(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) m).forEach((k, v) -> { if (!TIMED.matcher(k).find()) out.put(k, timeless(v)); });
            return out;
        }
        if (o instanceof List<?> l) return l.stream().map(RunDiff::timeless).toList();
        return o;
    }
}
