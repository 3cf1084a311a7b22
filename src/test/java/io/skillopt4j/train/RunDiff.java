package io.skillopt4j.train;

import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Thread-safe (stateless). {@code ../shared/bench/run_diff.py}'s comparison of two run folders for tests: the
 * file tree, every JSON/JSONL value except volatile fields (times, durations, paths, tokens, model ids), JSONL
 * rows matched by {@code id}, everything else byte for byte. Returns the differences (empty = same run).
 */
final class RunDiff {
    private static final Pattern VOLATILE = Pattern.compile("(^config$|time|wall|duration|elapsed|_s$|_ms$|timestamp|started|finished|date|path|dir$|root|"
            + "tokens|usage|cost|model|pid|host|version|seed_used|out_root|resumed|fallbacks|conversation)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SKIP = Pattern.compile("(conversation\\.json|target_(system|user)_prompt\\.txt|config\\.json|runtime_state\\.json|"
            + "\\.log$|workspaces/|fallbacks\\.json|trainer_log|stdout|^token_usage\\.jsonl$)");

    private RunDiff() {}

    static List<String> diff(Path ref, Path ours) {
        TreeSet<String> a = files(ref), b = files(ours);
        List<String> out = new ArrayList<>();
        for (String f : a) if (!b.contains(f)) out.add("missing in ours: " + f);
        for (String f : b) if (!a.contains(f)) out.add("extra in ours: " + f);
        for (String f : a) {
            if (!b.contains(f)) continue;
            try {
                if (f.endsWith(".json") || f.endsWith(".jsonl")) cmp(load(ref.resolve(f)), load(ours.resolve(f)), f, out);
                else if (!Arrays.equals(Files.readAllBytes(ref.resolve(f)), Files.readAllBytes(ours.resolve(f)))) out.add(f + ": content differs");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static TreeSet<String> files(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            TreeSet<String> out = new TreeSet<>();
            s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(f -> !SKIP.matcher(f).find()).forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object load(Path p) throws IOException {
        if (!p.toString().endsWith(".jsonl")) return Json.read(p);
        List<Object> rows = new ArrayList<>();
        for (String l : Files.readAllLines(p)) if (!l.isBlank()) rows.add(Json.parse(l));
        if (!rows.isEmpty() && rows.stream().allMatch(r -> r instanceof Map<?, ?> m && m.containsKey("id"))) {
            rows.sort(Comparator.comparing(r -> String.valueOf(((Map<String, Object>) r).get("id"))));
        }
        return rows;
    }

    private static void cmp(Object a, Object b, String where, List<String> out) {
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            TreeSet<String> keys = new TreeSet<>();
            ma.keySet().forEach(k -> keys.add(String.valueOf(k)));
            mb.keySet().forEach(k -> keys.add(String.valueOf(k)));
            for (String k : keys) {
                if (VOLATILE.matcher(k).find()) continue;
                if (!ma.containsKey(k)) out.add(where + "." + k + ": extra in ours");
                else if (!mb.containsKey(k)) out.add(where + "." + k + ": missing in ours");
                else cmp(ma.get(k), mb.get(k), where + "." + k, out);
            }
        } else if (a instanceof List<?> la && b instanceof List<?> lb) {
            if (la.size() != lb.size()) { out.add(where + ": " + la.size() + " items vs " + lb.size()); return; }
            for (int i = 0; i < la.size(); i++) cmp(la.get(i), lb.get(i), where + "[" + i + "]", out);
        } else if (a instanceof Number x && b instanceof Number y && !(a instanceof Boolean) && !(b instanceof Boolean)) {
            if (Math.abs(x.doubleValue() - y.doubleValue()) > 1e-9) out.add(where + ": " + a + " vs " + b);
        } else if (!Objects.equals(a, b)) {
            out.add(where + ": " + a + " vs " + b);
        }
    }
}
