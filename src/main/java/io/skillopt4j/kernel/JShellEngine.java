package io.skillopt4j.kernel;

import io.skillopt4j.notebook.Startup;
import jdk.jshell.Diag;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.CompletionInfo;
import jdk.jshell.SourceCodeAnalysis.Completeness;
import jdk.jshell.UnresolvedReferenceException;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Not thread-safe; one per session, one cell at a time. Evaluates notebook cells with {@code jdk.jshell} in this
 * JVM: state carries across cells, the last expression's real object comes back for rich rendering, and failures
 * become {@link CellException}s formatted as IJava does.
 */
public final class JShellEngine implements AutoCloseable {
    /** A cell's result value (which may itself be null). */
    public record Value(Object value) {}

    /** Completion choices replacing {@code [start, end)} of the cell. */
    public record Completion(List<String> options, int start, int end) {}

    public static final String DEFAULT_IMPORTS = Startup.JSHELL_DEFAULT_IMPORTS;

    private final JShell shell;
    private final StashingExecutionControl control = new StashingExecutionControl();

    private JShellEngine(List<String> classPath) {
        this.shell = JShell.builder()
                .executionEngine(StashingExecutionControl.provider(control), Map.of())
                .out(System.out).err(System.err)
                .build();
        // The compiler's class path is empty by default: make the toolkit (and the kernel) visible to cells.
        for (String entry : classPath) if (!entry.isBlank()) shell.addToClasspath(entry);
    }

    /** An engine whose cells compile against {@code classPath}. */
    public static JShellEngine create(List<String> classPath) {
        return new JShellEngine(classPath);
    }

    public static List<String> systemClassPath() {
        return List.of(System.getProperty("java.class.path", "").split(File.pathSeparator));
    }

    /** Runs a startup script; one line per failed snippet, as a missing optional package must not stop a session. */
    public List<String> startup(String script) {
        List<String> problems = new ArrayList<>();
        String rest = script;
        while (!rest.isBlank()) {
            CompletionInfo info = shell.sourceCodeAnalysis().analyzeCompletion(rest);
            String src = info.completeness().isComplete() ? info.source() : rest;
            rest = info.completeness().isComplete() ? info.remaining() : "";
            try {
                run(src, script, 0);
            } catch (CellException e) {
                problems.add(src.strip() + " -> " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        return problems;
    }

    /**
     * Evaluates a cell. Returns the value of its last snippet when that is an expression, empty otherwise.
     * @throws CellException.CompilationException when a snippet does not compile or the cell is incomplete
     * @throws CellException.EvalException when user code throws
     */
    public Optional<Value> eval(String cell) {
        String rest = cell;
        Optional<Value> last = Optional.empty();
        while (!rest.isBlank()) {
            int offset = cell.length() - rest.length();
            CompletionInfo info = shell.sourceCodeAnalysis().analyzeCompletion(rest);
            Completeness c = info.completeness();
            if (c == Completeness.EMPTY) break;
            if (c == Completeness.DEFINITELY_INCOMPLETE || c == Completeness.CONSIDERED_INCOMPLETE) {
                throw Diagnostics.incomplete(cell, offset + rest.length() - rest.stripLeading().length());
            }
            String src = c.isComplete() ? info.source() : rest;
            rest = c.isComplete() ? info.remaining() : "";
            last = run(src, cell, offset);
        }
        return last;
    }

    private Optional<Value> run(String src, String cell, int offset) {
        control.clear();
        List<SnippetEvent> events = shell.eval(src);
        Optional<Value> value = Optional.empty();
        for (SnippetEvent event : events) {
            if (event.causeSnippet() != null) continue; // consequences for other snippets, not this one
            Snippet snippet = event.snippet();
            if (event.status() == Snippet.Status.REJECTED) {
                List<Diag> diags = shell.diagnostics(snippet).filter(Diag::isError).toList();
                throw Diagnostics.compile(diags, snippet.source(), cell, offset);
            }
            JShellException ex = event.exception();
            if (ex instanceof UnresolvedReferenceException ure) {
                List<String> missing = shell.unresolvedDependencies(ure.getSnippet()).toList();
                throw Diagnostics.unresolved(ure.getSnippet(), missing, cell, offset);
            }
            if (ex != null) throw Diagnostics.eval(ex);
            if (isExpression(snippet) && control.value().isPresent()) value = control.value();
        }
        return value;
    }

    private static boolean isExpression(Snippet s) {
        return switch (s.subKind()) {
            case VAR_VALUE_SUBKIND, OTHER_EXPRESSION_SUBKIND, TEMP_VAR_EXPRESSION_SUBKIND -> true;
            default -> false;
        };
    }

    /** Completion at {@code cursor}, within the snippet of the cell that holds the cursor. */
    public Completion complete(String cell, int cursor) {
        SourceCodeAnalysis sca = shell.sourceCodeAnalysis();
        int start = 0;
        String rest = cell;
        while (true) {
            CompletionInfo info = sca.analyzeCompletion(rest);
            if (!info.completeness().isComplete() || info.remaining().isBlank()) break;
            int next = cell.length() - info.remaining().length();
            if (next > cursor) break;
            start = next;
            rest = info.remaining();
        }
        int[] anchor = new int[1];
        List<SourceCodeAnalysis.Suggestion> suggestions = sca.completionSuggestions(cell.substring(start), cursor - start, anchor);
        List<String> options = Stream.concat(suggestions.stream().filter(SourceCodeAnalysis.Suggestion::matchesType),
                suggestions.stream()).map(SourceCodeAnalysis.Suggestion::continuation).distinct().toList();
        return new Completion(options, start + anchor[0], cursor);
    }

    /** {@code "complete"}, {@code "incomplete"} (the front end waits for more lines) or {@code "invalid"}. */
    public String completeness(String cell) {
        String rest = cell;
        while (!rest.isBlank()) {
            CompletionInfo info = shell.sourceCodeAnalysis().analyzeCompletion(rest);
            switch (info.completeness()) {
                case DEFINITELY_INCOMPLETE, CONSIDERED_INCOMPLETE -> { return "incomplete"; }
                case UNKNOWN -> { return "invalid"; }
                case EMPTY -> { return "complete"; }
                default -> rest = info.remaining();
            }
        }
        return "complete";
    }

    /** Adds a jar or class folder to what cells compile against and load from. */
    public void addToClasspath(String path) {
        shell.addToClasspath(path);
    }

    /** Interrupts the running cell's thread (cooperative: a busy loop that ignores interrupts keeps running). */
    public void interrupt() {
        control.stop();
    }

    @Override public void close() {
        shell.close();
    }
}
