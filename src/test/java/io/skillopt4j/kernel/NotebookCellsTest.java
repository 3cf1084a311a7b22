package io.skillopt4j.kernel;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The fast path: every code cell of every notebook in notebooks/ runs through jdk.jshell directly (no
 * Jupyter), one JVM per notebook with the project's test class path and notebooks/ as working directory.
 */
class NotebookCellsTest {
    static final Path NOTEBOOKS = Path.of("notebooks");

    static List<Path> notebooks() throws Exception {
        try (Stream<Path> s = Files.list(NOTEBOOKS)) {
            return s.filter(p -> p.toString().endsWith(".ipynb")).sorted().toList();
        }
    }

    @TestFactory Stream<DynamicTest> everyCodeCellOfEveryNotebookRuns() throws Exception {
        List<Path> nbs = notebooks();
        assertFalse(nbs.isEmpty(), "no notebooks found in " + NOTEBOOKS.toAbsolutePath());
        return nbs.stream().map(nb -> DynamicTest.dynamicTest(nb.getFileName().toString(), () -> run(nb)));
    }

    private static void run(Path nb) throws Exception {
        String cp = String.join(File.pathSeparator, JShellEngineTest.testClassPath());
        Path log = Files.createTempFile("nb-", ".log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-cp", cp, NotebookCellRunner.class.getName(), nb.getFileName().toString())
                .directory(NOTEBOOKS.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(180, TimeUnit.SECONDS);
        if (!done) p.destroyForcibly();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        assertTrue(done, nb + " did not finish in 180 s:\n" + out);
        assertEquals(0, p.exitValue(), nb + " failed:\n" + out);
        assertTrue(out.contains("code cells ok"), out);
    }
}
