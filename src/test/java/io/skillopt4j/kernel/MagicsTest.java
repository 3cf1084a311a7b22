package io.skillopt4j.kernel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The magics a JJava notebook uses, in our kernel's cell evaluation (one JShell session for the class). */
class MagicsTest {
    private static JShellEngine jsh;
    private static Magics magics;
    @TempDir static Path dir;

    @BeforeAll static void start() throws Exception {
        jsh = JShellEngine.create(JShellEngineTest.testClassPath());
        assertEquals(java.util.List.of(), jsh.startup(JShellEngine.DEFAULT_IMPORTS));
        magics = new Magics(jsh, new LocalMaven(LocalMavenTest.repo(dir.resolve("m2")), true));
    }

    @AfterAll static void stop() {
        jsh.close();
    }

    private static Object value(String cell) {
        return magics.eval(cell).orElseThrow().value();
    }

    private static String error(String cell) {
        CellException e = assertThrows(CellException.MagicException.class, () -> magics.eval(cell));
        assertEquals(1, e.traceback().size(), "one line: " + e.traceback());
        return e.getMessage();
    }

    @Test void classpathAddsAJarThatLaterCodeInTheSameCellUses() throws Exception {
        TestJars.jar(dir.resolve("libs/greeter-1.jar"), "demo.Greeter",
                "package demo; public class Greeter { public static String hi(String n) { return \"hi \" + n; } }");
        assertEquals("hi ann", value("%classpath " + dir.resolve("libs/greet*.jar") + "\ndemo.Greeter.hi(\"ann\")"));
    }

    @Test void jarsIsTheOldNameOfClasspath() throws Exception {
        Path jar = TestJars.jar(dir.resolve("other/adder.jar"), "demo.Adder",
                "package demo; public class Adder { public static int add(int a, int b) { return a + b; } }");
        magics.eval("%jars " + jar);
        assertEquals(5, value("demo.Adder.add(2, 3)"));
    }

    @Test void classpathOfAFileThatIsNotThereIsAOneLineError() {
        String msg = error("int a = 1;\n%classpath " + dir.resolve("nope/*.jar"));
        assertTrue(msg.startsWith("%classpath: no file matches " + dir.resolve("nope/*.jar")), msg);
        assertTrue(msg.endsWith("(line 2)"), msg);
    }

    @Test void theToolkitsOwnJarIsANoOpHereEvenBeforeItIsBuilt() {
        assertTrue(magics.eval("%classpath ../target/skillopt4j-*-jupyter.jar").isEmpty());
    }

    @Test void unknownMagicsNameThemselvesAndWhatIsSupported() {
        assertEquals("unknown magic %mavenRepo on line 1; this kernel knows " + Magics.KNOWN, error("%mavenRepo x https://example.invalid"));
        assertEquals("unknown magic %%bash on line 1; this kernel knows " + Magics.KNOWN, error("%%bash\necho hi"));
    }

    @Test void timePrintsTheWallTimeAndKeepsTheValue() {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertEquals(42, value("%time 6 * 7"));
            assertEquals(9, value("%%time\nint t = 4;\nt + 5"));
        } finally {
            System.setOut(old);
        }
        assertTrue(buf.toString(StandardCharsets.UTF_8).matches("(?s)Wall time: \\d+\\.\\d{3} s\\RWall time: \\d+\\.\\d{3} s\\R"), buf.toString());
    }

    @Test void loadRunsAScriptAndANotebooksCodeCells() throws Exception {
        Path script = Files.writeString(dir.resolve("setup.jsh"), "int loaded = 40;\nString who() { return \"script\"; }\n");
        magics.eval("%load " + script);
        assertEquals(41, value("loaded + 1"));
        Path nb = Files.writeString(dir.resolve("helpers.ipynb"), """
                {"cells": [{"cell_type": "markdown", "source": ["# x"]},
                           {"cell_type": "code", "source": ["int fromNotebook = 2;\\n", "fromNotebook += 1;"]}],
                 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}""");
        magics.eval("%load " + nb);
        assertEquals(3, value("fromNotebook"));
        assertTrue(error("%load " + dir.resolve("missing.jsh")).startsWith("%load: no file "));
    }

    @Test void mavenAddsAnArtifactAndItsDependenciesFromTheLocalRepository() {
        assertEquals("app uses lib 2", value("%maven org.example:app:1.0\norg.example.app.App.describe()"));
        String absent = error("%maven org.example:absent:9");
        assertTrue(absent.startsWith("%maven org.example:absent:9: ") && absent.contains("org.example:absent:jar:9") && absent.contains("offline"), absent);
    }

    @Test void compileErrorsAfterAMagicStillNameTheCellLine() {
        CellException e = assertThrows(CellException.CompilationException.class,
                () -> magics.eval("%time\nint ok = 1;\nString s = 5;"));
        assertTrue(e.getMessage().startsWith("line 3: incompatible types"), e.getMessage());
    }

    @Test void cellsWithoutMagicsAreUnchanged() {
        assertEquals(10, value("int q = 10;\nq"));
        assertEquals(3, value("10 % 7"));
    }
}
