package io.skillopt4j;

import io.skillopt4j.config.Flags;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rules of shape the compiler cannot check: one assembly path for a training, config read through typed accessors. */
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

    /** A typed read with a literal key and a default of its own: {@code cfg.integer("workers", 8)}. */
    private static final Pattern STRING_KEY_READ = Pattern.compile("\\.(string|integer|longValue|decimal|bool)\\(\"[a-z_]+\",");
    /** A raw read of a config by literal key: {@code cfg.get("budget_usd")}, {@code ctx.config().has("workers")}. */
    private static final Pattern RAW_KEY_READ = Pattern.compile("\\b(?:cfg|config|flat|config\\(\\))\\.(?:get|has)\\(\"[a-z_]+\"\\)");
    private static final Pattern SETTING = Pattern.compile("Setting\\.(?:string|integer|longValue|decimal|bool|value)\\(\"([a-z_]+)\"\\)");

    @Test void configIsReadThroughTypedAccessorsOutsideConfig() throws IOException {
        List<String> bad = new ArrayList<>();
        for (Path f : javaFiles(MAIN)) {
            String rel = MAIN.relativize(f).toString();
            if (rel.startsWith("config/")) continue;
            String[] lines = Files.readString(f).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (STRING_KEY_READ.matcher(lines[i]).find() || RAW_KEY_READ.matcher(lines[i]).find()) bad.add(rel + ":" + (i + 1) + ": " + lines[i].strip());
            }
        }
        assertTrue(bad.isEmpty(), "string-key config reads (an inline default, or a raw get/has) outside config/ (use RunConfig or config.Setting;"
                + " the default belongs in the flag table):\n" + String.join("\n", bad));
    }

    @Test void everySettingNamesARowOfTheFlagTable() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path f : javaFiles(MAIN)) {
            Matcher m = SETTING.matcher(Files.readString(f));
            while (m.find()) if (Flags.byKey(m.group(1)).isEmpty()) missing.add(MAIN.relativize(f) + ": " + m.group(1));
        }
        assertTrue(missing.isEmpty(), "Setting for a key the flag table lacks:\n" + String.join("\n", missing));
    }

    static List<Path> javaFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }
}
