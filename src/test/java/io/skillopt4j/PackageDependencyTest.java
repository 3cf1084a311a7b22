package io.skillopt4j;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keeps the package graph pointing one way: config → backend → env → run → train → temporal → frames → notebook → kernel → bench → cli. */
class PackageDependencyTest {
    private static final Map<String, Integer> LEVEL = Map.ofEntries(
            Map.entry("", 0), Map.entry("internal", 0), Map.entry("config", 1), Map.entry("backend", 2),
            Map.entry("env", 3), Map.entry("sim", 4), Map.entry("run", 4), Map.entry("train", 5), Map.entry("temporal", 6),
            Map.entry("frames", 7), Map.entry("notebook", 8), Map.entry("kernel", 9), Map.entry("bench", 10), Map.entry("cli", 11));
    private static final Set<String> MAY_IMPORT_SIM = Set.of("sim", "bench", "cli", "notebook");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?io\\.skillopt4j\\.([a-z]+)?", Pattern.MULTILINE);
    private static final Pattern FQN = Pattern.compile("\\bio\\.skillopt4j\\.([a-z]+)\\.[A-Z]");

    @Test
    void importsPointDownThePipeline() throws IOException {
        Path root = Path.of("src/main/java/io/skillopt4j");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String from = topPackage(root.relativize(f.getParent()).toString());
                String text = Files.readString(f);
                for (Pattern p : List.of(IMPORT, FQN)) {
                    Matcher m = p.matcher(text);
                    while (m.find()) {
                        String to = m.group(1) == null ? "" : m.group(1);
                        if (!LEVEL.containsKey(to) || !LEVEL.containsKey(from)) {
                            if (!LEVEL.containsKey(from)) violations.add(f + ": unknown top package '" + from + "'");
                            continue;
                        }
                        boolean bad = LEVEL.get(to) > LEVEL.get(from) || (to.equals("sim") && !MAY_IMPORT_SIM.contains(from));
                        if (bad) violations.add(f + " (" + from + ") imports io.skillopt4j." + to);
                    }
                }
            }
        }
        assertTrue(violations.isEmpty(), "package dependency violations:\n" + String.join("\n", violations));
    }

    private static String topPackage(String rel) {
        if (rel.isEmpty()) return "";
        int slash = rel.indexOf('/');
        return slash < 0 ? rel : rel.substring(0, slash);
    }
}
