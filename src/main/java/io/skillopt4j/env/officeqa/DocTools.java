package io.skillopt4j.env.officeqa;

import io.skillopt4j.backend.ToolSpec;
import io.skillopt4j.env.Fields;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** Immutable, so thread-safe. OfficeQA's glob/read/grep tools, confined to the roots and candidate files. */
public final class DocTools {
    static final List<ToolSpec> SPECS = List.of(
            new ToolSpec("glob", "Find document files whose relative path or file name matches a glob pattern (max 50).",
                    Map.of("type", "object", "properties", Map.of("pattern", Map.of("type", "string")), "required", List.of("pattern"))),
            new ToolSpec("read", "Read a window of lines from a document file (default start 1, limit 80; max 4000 chars).",
                    Map.of("type", "object", "properties", Map.of("path", Map.of("type", "string"), "start", Map.of("type", "integer"),
                            "limit", Map.of("type", "integer")), "required", List.of("path"))),
            new ToolSpec("grep", "Case-insensitive literal search in one document file; returns up to 20 'lineno: line' matches.",
                    Map.of("type", "object", "properties", Map.of("pattern", Map.of("type", "string"), "path", Map.of("type", "string")),
                            "required", List.of("pattern", "path"))));

    private final List<Path> roots;
    private final Set<String> allowedNames;

    DocTools(List<Path> roots, Set<String> allowedNames) {
        this.roots = roots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        this.allowedNames = allowedNames;
    }

    /** Runs one tool call and returns its text result (errors are results too, as upstream). */
    String call(String name, Map<String, Object> args) {
        try {
            return switch (name) {
                case "glob" -> glob(Objects.toString(args.get("pattern"), "*"));
                case "read" -> read(Objects.toString(args.get("path"), ""), intArg(args, "start", 1), intArg(args, "limit", 80));
                case "grep" -> grep(Objects.toString(args.get("pattern"), ""), Objects.toString(args.get("path"), ""));
                default -> "error: unknown tool " + name;
            };
        } catch (IOException e) {
            return "error: " + e.getMessage();
        }
    }

    /** Renders a call as upstream's trajectory {@code cmd}: {@code read(path='…', start=1, limit=80)}. */
    static String render(String name, Map<String, Object> args) {
        return name + "(" + args.entrySet().stream().map(e -> e.getKey() + "="
                + (e.getValue() instanceof String s ? Fields.pyRepr(s) : String.valueOf(e.getValue())))
                .collect(Collectors.joining(", ")) + ")";
    }

    private static int intArg(Map<String, Object> a, String k, int def) {
        Object v = a.get(k);
        if (v instanceof Number n) return n.intValue();
        try { return v == null ? def : Integer.parseInt(String.valueOf(v).trim()); } catch (NumberFormatException e) { return def; }
    }

    String glob(String pattern) throws IOException {
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        List<String> out = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> st = Files.walk(root)) {
                for (Path p : (Iterable<Path>) st.filter(Files::isRegularFile).sorted()::iterator) {
                    Path rel = root.relativize(p);
                    if (!allowed(p)) continue;
                    if (m.matches(rel) || m.matches(p.getFileName())) out.add(p.toString());
                    if (out.size() >= 50) return String.join("\n", out);
                }
            }
        }
        return out.isEmpty() ? "no matches" : String.join("\n", out);
    }

    String read(String path, int start, int limit) throws IOException {
        Path p = resolve(path);
        if (p == null) return "error: path not allowed: " + path;
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        int from = Math.max(1, start);
        int to = Math.min(lines.size(), from - 1 + Math.max(1, limit));
        String s = IntStream.rangeClosed(from, to).mapToObj(i -> i + ": " + lines.get(i - 1) + "\n").collect(Collectors.joining());
        return s.length() > 4000 ? s.substring(0, 4000) : s.isEmpty() ? "(no lines in range; file has " + lines.size() + " lines)" : s;
    }

    String grep(String pattern, String path) throws IOException {
        Path p = resolve(path);
        if (p == null) return "error: path not allowed: " + path;
        String needle = pattern.toLowerCase(Locale.ROOT);
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        List<String> out = IntStream.range(0, lines.size()).filter(i -> lines.get(i).toLowerCase(Locale.ROOT).contains(needle)).limit(20)
                .mapToObj(i -> (i + 1) + ": " + lines.get(i)).toList();
        return out.isEmpty() ? "no matches" : String.join("\n", out);
    }

    private boolean allowed(Path p) {
        return allowedNames.isEmpty() || allowedNames.contains(p.getFileName().toString());
    }

    /** A tool path inside a root (absolute or root-relative), or null when outside or not allowed. */
    Path resolve(String path) {
        if (path.isBlank()) return null;
        for (Path root : roots) {
            Path p = Path.of(path);
            Path abs = (p.isAbsolute() ? p : root.resolve(p)).toAbsolutePath().normalize();
            if (abs.startsWith(root) && Files.isRegularFile(abs) && allowed(abs)) return abs;
        }
        return null;
    }
}
