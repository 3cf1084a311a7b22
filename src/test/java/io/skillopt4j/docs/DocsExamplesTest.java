package io.skillopt4j.docs;

import io.skillopt4j.kernel.DocBlockRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Issue 16 item 5: the docs' Java examples run as written, with the startup script shipped at the top of the
 * repository. README's block is a plain-JShell session: it is typed, line by line, into the real {@code jshell}
 * tool started with the command line in its first comment (only the class path is the test class path, since
 * {@code mvn test} runs before the jar exists). The {@code ```java} blocks of docs/*.md are notebook cells: they run
 * through the kernel's JShell engine ({@link DocBlockRunner}), one session per file, top to bottom. Both run in a
 * scratch directory shaped like a checkout — {@code configs/} and {@code skillopt.jsh} linked, run folders copied
 * because examples write plots and reports into them — with no API key in the environment.
 */
class DocsExamplesTest {
    private static final Path REPO = Path.of("").toAbsolutePath();
    private static final Pattern FAILURE = Pattern.compile("(?m)^\\|\\s+(Error:|Exception |Caused by:)");

    @TempDir Path scratch;

    @Test
    void readmeJShellExampleRunsVerbatimInTheJshellTool() throws Exception {
        List<String> blocks = DocBlockRunner.blocks(Files.readString(REPO.resolve("README.md")));
        assertEquals(1, blocks.size(), "README has one java block, the JShell session");
        String block = blocks.get(0);
        String first = block.lines().findFirst().orElse("");
        assertTrue(first.startsWith("// jshell "), "the block says how to start jshell: " + first);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jshell").toString(),
                "-R-Djava.awt.headless=true", "-J-Djava.util.prefs.userRoot=" + scratch.resolve("prefs")));
        String[] args = first.substring("// jshell ".length()).strip().split("\\s+");
        for (int i = 0; i < args.length; i++) {
            cmd.add(args[i]);
            if (args[i].equals("--class-path")) { cmd.add(testClassPath()); i++; }
        }
        Path dir = checkout(scratch.resolve("readme"));
        // README's one-time JShell setup (values longer than 1000 characters are cut otherwise) goes first, as typed.
        List<String> setup = Files.readString(REPO.resolve("README.md")).lines()
                .filter(l -> l.startsWith("jshell> /set ")).map(l -> l.substring("jshell> ".length())).toList();
        assertEquals(4, setup.size(), "README shows the truncation setup");
        String out = run(cmd, dir, String.join("\n", setup) + "\n" + block + "\n/exit\n");
        Matcher fail = FAILURE.matcher(out);
        if (fail.find()) fail("README's JShell example failed in jshell:\n" + out.substring(Math.max(0, fail.start() - 600)));
        assertTrue(out.contains("run ==> "), "the run printed as a value:\n" + out);
        assertTrue(out.contains("training: step 1/"), "progress lines while training:\n" + out);
        assertTrue(out.contains("rows x 40 columns · 2 runs · steps"), "the comparison printed:\n" + out);
        for (String line : out.split("\n")) {
            // The scratch folder's own path is long; every table line fits 120 columns after JShell's prompt.
            if (!line.contains(dir.toString())) assertTrue(line.length() <= 130, "frames fit the terminal: " + line);
        }
        Files.copy(dir.resolve("out.log"), Path.of("target", "readme-jshell.out"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(out.contains("… 29 more columns: selection_hard"), "the whole steps frame printed, not cut at 1000 characters");
        assertFalse(out.contains("\nDoes not match"), "the /set commands worked:\n" + out);
    }

    @Test
    void javaBlocksOfDocsRunAsNotebookCells() throws Exception {
        List<String> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(REPO.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted()
                    .filter(p -> !DocBlockRunner.blocks(read(p)).isEmpty()).forEach(p -> files.add(p.toString()));
        }
        assertTrue(files.size() >= 5, "docs with java blocks: " + files);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-Xmx1g", "-cp", testClassPath(), DocBlockRunner.class.getName()));
        cmd.addAll(files);
        String out = run(cmd, checkout(scratch.resolve("docs")), "");
        assertFalse(out.contains(" FAILED"), out);
        assertEquals(files.size(), out.lines().filter(l -> l.startsWith("DOC ") && l.contains(" OK: ")).count(), out);
    }

    private static String run(List<String> cmd, Path dir, String input) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        // Only what a JVM needs: no key of the developer's reaches an example.
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> !List.of("PATH", "HOME", "LANG", "JAVA_HOME", "TMPDIR").contains(k));
        Path log = dir.resolve("out.log");
        Process p = pb.redirectOutput(log.toFile()).start();
        try (var in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        boolean done = p.waitFor(10, TimeUnit.MINUTES);
        if (!done) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "did not finish in 10 minutes:\n" + out);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /** A directory shaped like the repository's top, so the examples' relative paths resolve as in a checkout. */
    private static Path checkout(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.createSymbolicLink(dir.resolve("configs"), REPO.resolve("configs"));
        Files.createSymbolicLink(dir.resolve("skillopt.jsh"), REPO.resolve("skillopt.jsh"));
        copyTree(REPO.resolve("notebooks/data"), dir.resolve("notebooks/data"));
        copyTree(REPO.resolve("src/test/resources/runs"), dir.resolve("src/test/resources/runs"));
        return dir;
    }

    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t); else Files.copy(p, t);
            }
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
