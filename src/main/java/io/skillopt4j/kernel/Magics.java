package io.skillopt4j.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Not thread-safe; one per session. The magics JJava users type ({@link #KNOWN}), so one notebook's cells run in
 * both kernels; any other magic fails the cell with one line. The rest of a cell goes to {@link JShellEngine}.
 */
final class Magics {
    static final String KNOWN = "%classpath, %jars, %maven, %load, %time and %%time";
    private static final Pattern LINE_MAGIC = Pattern.compile("^[ \\t]*%([A-Za-z][\\w-]*)(.*)$");
    private static final Pattern TOOLKIT_JAR = Pattern.compile("skillopt4j-[^/]*\\.jar");
    private static final Pattern CELL_MAGIC = Pattern.compile("^\\s*%%([A-Za-z][\\w-]*)(.*)$");

    private final JShellEngine engine;
    private final LocalMaven maven;

    Magics(JShellEngine engine, LocalMaven maven) {
        this.engine = engine;
        this.maven = maven;
    }

    /** Runs a cell: magic lines run where they stand; the value is that of the cell's last code. */
    Optional<JShellEngine.Value> eval(String cell) {
        Matcher cm = CELL_MAGIC.matcher(cell.lines().findFirst().orElse(""));
        if (cm.matches()) {
            if (!cm.group(1).equals("time")) throw unknown("%%" + cm.group(1), 1);
            int nl = cell.indexOf('\n');
            return timed(nl < 0 ? "" : cell.substring(nl + 1));
        }
        List<String> lines = cell.lines().toList();
        if (lines.stream().noneMatch(l -> LINE_MAGIC.matcher(l).matches())) return engine.eval(cell);
        Optional<JShellEngine.Value> last = Optional.empty();
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LINE_MAGIC.matcher(lines.get(i));
            if (!m.matches()) {
                code.append(lines.get(i)).append('\n');
                continue;
            }
            if (!code.toString().isBlank()) last = engine.eval(code.toString());
            // Keep the blank lines so compile errors after a magic still name the cell's line.
            code.setLength(0);
            code.append("\n".repeat(i + 1));
            last = line(m.group(1), m.group(2).strip(), i + 1);
        }
        if (!code.toString().isBlank()) last = engine.eval(code.toString());
        return last;
    }

    private Optional<JShellEngine.Value> line(String name, String args, int lineNo) {
        return switch (name) {
            case "classpath", "jars" -> {
                if (args.isEmpty()) throw magic("%" + name + " needs a path (globs like ../target/*.jar allowed)", lineNo);
                for (String arg : words(args)) for (String part : arg.split(File.pathSeparator)) {
                    // this kernel runs on the toolkit's jar: adding it again (as JJava notebooks do) is a no-op
                    if (TOOLKIT_JAR.matcher(Path.of(part).getFileName().toString()).matches()) continue;
                    List<Path> found = glob(part);
                    if (found.isEmpty()) throw magic("%" + name + ": no file matches " + part + " (working directory "
                            + Path.of("").toAbsolutePath() + ")", lineNo);
                    found.forEach(p -> engine.addToClasspath(p.toString()));
                }
                yield Optional.empty();
            }
            case "maven" -> {
                if (args.isEmpty()) throw magic("%maven needs group:artifact:version", lineNo);
                for (String coords : words(args)) {
                    try {
                        maven.resolve(coords).forEach(p -> engine.addToClasspath(p.toString()));
                    } catch (LocalMaven.MavenException e) {
                        throw magic("%maven " + coords + ": " + e.getMessage(), lineNo);
                    }
                }
                yield Optional.empty();
            }
            case "load" -> {
                List<String> w = words(args);
                if (w.size() != 1) throw magic("%load needs one file (a .jsh/.java script or an .ipynb notebook)", lineNo);
                yield load(Path.of(w.get(0)), lineNo);
            }
            case "time" -> args.isEmpty() ? Optional.empty() : timed(args);
            default -> throw unknown("%" + name, lineNo);
        };
    }

    private Optional<JShellEngine.Value> load(Path file, int lineNo) {
        if (!Files.isRegularFile(file)) throw magic("%load: no file " + file.toAbsolutePath(), lineNo);
        try {
            if (!file.getFileName().toString().endsWith(".ipynb")) return eval(Files.readString(file));
            Optional<JShellEngine.Value> last = Optional.empty();
            for (JsonNode cell : Json.mapper().readTree(file.toFile()).path("cells")) {
                if (!"code".equals(cell.path("cell_type").asText())) continue;
                JsonNode src = cell.path("source");
                last = eval(src.isTextual() ? src.asText()
                        : StreamSupport.stream(src.spliterator(), false).map(JsonNode::asText).collect(Collectors.joining()));
            }
            return last;
        } catch (IOException e) {
            throw magic("%load: cannot read " + file + ": " + e.getMessage(), lineNo);
        }
    }

    private Optional<JShellEngine.Value> timed(String code) {
        long t0 = System.nanoTime();
        try {
            return eval(code);
        } finally {
            System.out.printf("Wall time: %.3f s%n", (System.nanoTime() - t0) / 1e9);
        }
    }

    /** Files matching {@code pattern} ({@code *} and {@code ?} in the file name), sorted; the path itself if it exists. */
    static List<Path> glob(String pattern) {
        Path p = Path.of(pattern);
        if (!pattern.contains("*") && !pattern.contains("?")) return Files.exists(p) ? List.of(p.toAbsolutePath()) : List.of();
        Path dir = p.getParent() == null ? Path.of(".") : p.getParent();
        if (!Files.isDirectory(dir)) return List.of();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, p.getFileName().toString())) {
            return StreamSupport.stream(ds.spliterator(), false).map(f -> f.toAbsolutePath().normalize()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static List<String> words(String args) {
        return Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)").matcher(args).results()
                .map(m -> m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3)).toList();
    }

    private static CellException unknown(String magic, int lineNo) {
        return magic("unknown magic " + magic + " on line " + lineNo + "; this kernel knows " + KNOWN, 0);
    }

    private static CellException magic(String message, int lineNo) {
        return new CellException.MagicException(lineNo > 0 ? message + " (line " + lineNo + ")" : message);
    }
}
