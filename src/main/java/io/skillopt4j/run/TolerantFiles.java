package io.skillopt4j.run;

import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Not thread-safe; one per read. Never throws on a bad file: it gives one warning and an empty value. */
final class TolerantFiles {
    private final Path root;
    private final List<String> warnings = new ArrayList<>();

    TolerantFiles(Path root) { this.root = root; }

    List<String> warnings() { return warnings; }

    String rel(Path p) {
        try {
            return root.relativize(p).toString().replace('\\', '/');
        } catch (IllegalArgumentException e) {
            return p.toString();
        }
    }

    void warn(Path p, String what) { warnings.add(rel(p) + ": " + what); }

    void missing(Path p) { warn(p, "missing (run in progress or killed?)"); }

    /** Returns the entries of {@code dir} that pass {@code keep}, sorted; none when absent or unreadable (a warning). */
    List<Path> list(Path dir, Predicate<Path> keep) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(keep).sorted().toList();
        } catch (IOException e) {
            warn(dir, "unreadable (" + e.getMessage() + ")");
            return List.of();
        }
    }

    /** Returns the file's text, or null (warning if {@code required}) when absent or unreadable. */
    String text(Path p, boolean required) {
        if (!Files.isRegularFile(p)) {
            if (required) missing(p);
            return null;
        }
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            warn(p, "unreadable (" + e.getMessage() + ")");
            return null;
        }
    }

    /** Returns a JSON object as an ordered map, or null when absent or not a complete JSON object. */
    Map<String, Object> object(Path p, boolean required) { return typed(p, required, Map.class, "object"); }

    /** Returns a JSON array, or null when absent or not a complete JSON array. */
    List<Object> array(Path p, boolean required) { return typed(p, required, List.class, "array"); }

    @SuppressWarnings("unchecked")
    private <T> T typed(Path p, boolean required, Class<?> type, String what) {
        Object v = json(p, required);
        if (v == null || type.isInstance(v)) return (T) v;
        warn(p, "expected a JSON " + what + ", found " + kind(v) + "; ignored");
        return null;
    }

    private Object json(Path p, boolean required) {
        String text = text(p, required);
        if (text == null) return null;
        if (text.isBlank()) {
            warn(p, "empty (torn write?); ignored");
            return null;
        }
        try {
            return Json.parse(text);
        } catch (IllegalArgumentException e) {
            warn(p, "not complete JSON (torn write?); ignored");
            return null;
        }
    }

    /** Returns the JSON objects of a JSONL file in order; a line that does not parse is skipped with a warning. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> jsonl(Path p, boolean required) {
        if (!Files.isRegularFile(p)) {
            if (required) missing(p);
            return List.of();
        }
        byte[] b;
        try {
            b = Files.readAllBytes(p);
        } catch (IOException e) {
            warn(p, "unreadable (" + e.getMessage() + ")");
            return List.of();
        }
        // line slices of the bytes: no whole-file String, no per-line copies
        List<Map<String, Object>> out = new ArrayList<>();
        int lineNo = 0;
        int start = 0;
        while (start < b.length) {
            int end = start;
            while (end < b.length && b[end] != '\n') end++;
            lineNo++;
            int s = start, e = end;
            while (s < e && b[s] <= ' ') s++;
            while (e > s && b[e - 1] <= ' ') e--;
            start = end + 1;
            if (s == e) continue;
            try {
                Object v = Json.mapper().readValue(b, s, e - s, Object.class);
                if (v instanceof Map<?, ?> m) out.add((Map<String, Object>) m);
                else warn(p, "line " + lineNo + " is not a JSON object; skipped");
            } catch (IOException ex) {
                boolean last = true;
                for (int i = end; i < b.length; i++) if (b[i] > ' ') { last = false; break; }
                warn(p, "line " + lineNo + (last ? " is incomplete (torn last line?)" : " is not valid JSON") + "; skipped");
            }
        }
        return out;
    }

    private static String kind(Object v) {
        return v instanceof List ? "an array" : v instanceof String ? "a string" : v instanceof Number ? "a number" : "a value";
    }
}
