package io.skillopt4j.kernel;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The fast path: every code cell of every notebook in notebooks/ runs through jdk.jshell directly (no
 * Jupyter), in one JVM with the project's test class path and notebooks/ as working directory, a fresh
 * JShell session per notebook. One dynamic test per notebook reports its result.
 */
class NotebookCellsTest {
    static final Path NOTEBOOKS = Path.of("notebooks");

    @TestFactory Stream<DynamicTest> everyCodeCellOfEveryNotebookRuns() throws Exception {
        List<String> names;
        try (Stream<Path> s = Files.list(NOTEBOOKS)) {
            names = s.filter(p -> p.toString().endsWith(".ipynb")).map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertFalse(names.isEmpty(), "no notebooks found in " + NOTEBOOKS.toAbsolutePath());
        String out = runAll(names);
        return names.stream().map(n -> DynamicTest.dynamicTest(n, () -> {
            String ok = "NOTEBOOK " + n + " OK";
            assertTrue(out.contains(ok), n + " failed or did not run:\n" + out);
        }));
    }

    private static String runAll(List<String> names) throws Exception {
        String cp = String.join(File.pathSeparator, JShellEngineTest.testClassPath());
        Path log = Files.createTempFile("notebooks-", ".log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-cp", cp, NotebookCellRunner.class.getName()));
        cmd.addAll(names);
        Process p = new ProcessBuilder(cmd).directory(NOTEBOOKS.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(600, TimeUnit.SECONDS);
        if (!done) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        assertTrue(done, "the notebooks did not finish in 600 s:\n" + out);
        return out;
    }
}
