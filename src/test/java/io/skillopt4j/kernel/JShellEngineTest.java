package io.skillopt4j.kernel;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

import java.io.File;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class JShellEngineTest {
    private static JShellEngine jsh;

    /** Surefire hides the real class path behind a manifest-only jar; it publishes it in this property. */
    static List<String> testClassPath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return List.of(cp.split(File.pathSeparator));
    }

    @BeforeAll static void start() {
        jsh = JShellEngine.create(testClassPath());
        assertEquals(List.of(), jsh.startup(JShellEngine.DEFAULT_IMPORTS + "\nimport tech.tablesaw.api.*;"));
    }

    @AfterAll static void stop() {
        jsh.close();
    }

    @Test void keepsStateAcrossCellsAndReturnsTheLastExpressionValue() {
        assertTrue(jsh.eval("int x = 2;").isEmpty(), "a declaration shows nothing");
        assertEquals(42, jsh.eval("x * 21").orElseThrow().value());
    }

    @Test void returnsTheRealObjectNotItsString() {
        Object v = jsh.eval("var t = Table.create(\"t\", IntColumn.create(\"a\", 1, 2, 3));\nt").orElseThrow().value();
        assertInstanceOf(Table.class, v);
        assertEquals(3, ((Table) v).rowCount());
    }

    @Test void splitsACellIntoSnippetsAndReturnsOnlyTheLastValue() {
        assertEquals("ab", jsh.eval("String a = \"a\";\nString b = \"b\";\na + b").orElseThrow().value());
        assertTrue(jsh.eval("int y = 1;\nSystem.out.print(\"\");").isEmpty(), "a void statement last shows nothing");
        assertNull(jsh.eval("(Object) null").orElseThrow().value());
    }

    @Test void recordsAndClassesDeclaredInOneCellWorkInTheNext() {
        jsh.eval("record P(int a, int b) { int sum() { return a + b; } }\nclass Box { int v = 5; }");
        assertEquals(7, jsh.eval("new P(3, 4).sum()").orElseThrow().value());
        assertEquals(5, jsh.eval("new Box().v").orElseThrow().value());
    }

    @Test void compileErrorsNameTheCellLineAndTheProblem() {
        CellException.CompilationException e = assertThrows(CellException.CompilationException.class,
                () -> jsh.eval("int ok = 1;\nint bad = \"text\";"));
        assertTrue(e.getMessage().startsWith("line 2: incompatible types"), e.getMessage());
        assertEquals("error: incompatible types: java.lang.String cannot be converted to int", e.traceback().get(0));
        assertEquals("   2 | int bad = \"text\";", e.traceback().get(1));
        assertEquals(0, e.getStackTrace().length, "no kernel frames reach the notebook");
    }

    @Test void userExceptionsCarryClassMessageAndSnippetFrames() {
        jsh.eval("int depth(int n) { if (n == 0) throw new IllegalStateException(\"bottom\"); return depth(n - 1); }");
        CellException.EvalException e = assertThrows(CellException.EvalException.class, () -> jsh.eval("depth(2)"));
        assertEquals("java.lang.IllegalStateException", e.exceptionClass());
        assertEquals("java.lang.IllegalStateException: bottom", e.getMessage());
        List<String> tb = e.traceback();
        assertEquals("java.lang.IllegalStateException: bottom", tb.get(0));
        assertTrue(tb.get(1).matches("    at depth \\(snippet #\\d+, line 1\\)"), tb.toString());
        assertTrue(tb.get(tb.size() - 1).matches("    at \\(snippet #\\d+, line 1\\)"), tb.toString());
        assertTrue(tb.stream().noneMatch(l -> l.contains("jdk.") || l.contains("reflect") || l.contains("kernel")), tb.toString());
    }

    @Test void libraryFramesAndCausesAreShown() {
        CellException.EvalException e = assertThrows(CellException.EvalException.class,
                () -> jsh.eval("Integer.parseInt(\"oops\")"));
        assertEquals("java.lang.NumberFormatException: For input string: \"oops\"", e.getMessage());
        assertTrue(e.traceback().stream().anyMatch(l -> l.contains("java.lang.Integer.parseInt")), e.traceback().toString());
        CellException.EvalException c = assertThrows(CellException.EvalException.class,
                () -> jsh.eval("throw new RuntimeException(\"outer\", new java.io.IOException(\"inner\"));"));
        assertTrue(c.traceback().contains("Caused by: java.io.IOException: inner"), c.traceback().toString());
    }

    @Test void stateSurvivesAFailedCell() {
        jsh.eval("int kept = 7;");
        assertThrows(CellException.class, () -> jsh.eval("kept = 8;\nInteger.parseInt(\"x\");"));
        assertEquals(8, jsh.eval("kept").orElseThrow().value());
    }

    @Test void incompleteCellsAreCompileErrors() {
        CellException e = assertThrows(CellException.CompilationException.class, () -> jsh.eval("int z = 1;\nfor (int i = 0; i < 2; i++) {"));
        assertTrue(e.getMessage().startsWith("line 2: incomplete code"), e.getMessage());
        assertEquals("incomplete", jsh.completeness("void f() {"));
        assertEquals("complete", jsh.completeness("int q = 1;\nq + 1"));
    }

    @Test void interruptStopsABlockingCell() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread interrupter = new Thread(() -> {
            // the cell may still be compiling (slow with a long class path on a busy machine): interrupt until it stopped
            while (!done.get()) {
                try { Thread.sleep(100); } catch (InterruptedException ignored) { return; }
                jsh.interrupt();
            }
        });
        interrupter.start();
        CellException.EvalException e = assertThrows(CellException.EvalException.class, () -> {
            try { jsh.eval("Thread.sleep(20_000);"); } finally { done.set(true); }
        });
        interrupter.join();
        assertEquals("java.lang.InterruptedException", e.exceptionClass());
        assertEquals(2, jsh.eval("1 + 1").orElseThrow().value(), "the session goes on after an interrupt");
    }

    /** Code that keeps its interrupt flag set (an interrupted training does) must not hand it to the kernel's loop. */
    @Test void aCellThatLeavesItsInterruptFlagSetDoesNotPassItOn() throws Exception {
        assertEquals(3, jsh.eval("Thread.currentThread().interrupt(); 3").orElseThrow().value());
        assertFalse(Thread.currentThread().isInterrupted(), "the thread that ran the cell goes on uninterrupted");
        assertEquals(8, jsh.eval("4 + 4").orElseThrow().value());
        Thread.sleep(1); // what the kernel's shell loop does between requests
    }

    /** The toolkit's own exceptions show their one line and the cell's frames, not the library's. */
    @Test void aToolkitExceptionShowsItsLineAndTheCellsFramesOnly() {
        CellException.EvalException e = assertThrows(CellException.EvalException.class,
                () -> jsh.eval("io.skillopt4j.notebook.SkillOpt.config(\"no/such/config.yaml\").resolve()"));
        assertEquals("io.skillopt4j.ConfigException", e.exceptionClass());
        assertTrue(e.traceback().get(0).startsWith("io.skillopt4j.ConfigException: "), e.traceback().toString());
        assertTrue(e.traceback().stream().skip(1).allMatch(l -> l.contains("(snippet #")), e.traceback().toString());
        CellException.EvalException other = assertThrows(CellException.EvalException.class,
                () -> jsh.eval("java.util.List.of(1).get(5)"));
        assertTrue(other.traceback().stream().anyMatch(l -> l.contains("java.util.")), "other exceptions keep their frames");
    }

    @Test void completesWithinTheSnippetUnderTheCursor() {
        String cell = "int first = 1;\nSystem.out.prin";
        JShellEngine.Completion c = jsh.complete(cell, cell.length());
        assertTrue(c.options().contains("println("), c.options().toString());
        assertEquals(cell.length() - "prin".length(), c.start());
        assertEquals(cell.length(), c.end());
    }
}
