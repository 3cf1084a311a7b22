package io.skillopt4j;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rules of shape the compiler cannot check: one assembly path for a training. */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java/io/skillopt4j"), TEST = Path.of("src/test/java/io/skillopt4j");
    /** The one assembly class, and the Trainer's own tests (they train scripted benchmarks on purpose). */
    private static final Set<String> MAY_BUILD_TRAINER = Set.of("main:train/Trainer.java", "main:notebook/SkillOpt.java");

    @Test void aTrainingIsAssembledOnlyByTheFluentBuilder() throws IOException {
        List<String> bad = new ArrayList<>();
        for (String where : List.of("main", "test")) {
            Path root = where.equals("main") ? MAIN : TEST;
            for (Path f : javaFiles(root)) {
                String rel = root.relativize(f).toString();
                boolean allowed = MAY_BUILD_TRAINER.contains(where + ":" + rel) || (where.equals("test") && rel.startsWith("train/"));
                if (!allowed && !rel.equals("ArchitectureTest.java") && Files.readString(f).contains("Trainer" + ".builder()")) bad.add(where + ": " + rel);
            }
        }
        assertTrue(bad.isEmpty(), "Trainer.builder() outside notebook.SkillOpt (use SkillOpt...trainer()):\n" + String.join("\n", bad));
    }

    static List<Path> javaFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }
}
