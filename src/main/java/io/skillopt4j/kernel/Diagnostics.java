package io.skillopt4j.kernel;

import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.EvalException;
import jdk.jshell.JShellException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Stateless. Turns JShell's diagnostics and exceptions into {@link CellException}s that read like IJava's. */
final class Diagnostics {
    private Diagnostics() {}

    /** Compile errors: {@code error: <message>} then the cell line (numbered) and a caret under the span. */
    static CellException.CompilationException compile(List<Diag> diags, String snippetSource, String cell, int offset) {
        List<String> lines = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        for (Diag d : diags) {
            String msg = d.getMessage(Locale.ROOT);
            int start = (int) Math.max(0, Math.min(d.getStartPosition(), snippetSource.length()));
            int end = (int) Math.max(start, Math.min(d.getEndPosition(), snippetSource.length()));
            int lineStart = start == 0 ? 0 : snippetSource.lastIndexOf('\n', start - 1) + 1;
            int lineEnd = snippetSource.indexOf('\n', start);
            if (lineEnd < 0) lineEnd = snippetSource.length();
            int cellLine = lineOf(cell, offset) + lineOf(snippetSource, start) - 1;
            String first = msg.lines().findFirst().orElse(msg);
            messages.add("line " + cellLine + ": " + first);
            lines.add("error: " + first);
            msg.lines().skip(1).forEach(l -> lines.add("  " + l));
            String prefix = String.format("%4d | ", cellLine);
            lines.add(prefix + snippetSource.substring(lineStart, lineEnd));
            int caretEnd = Math.max(start + 1, Math.min(end, lineEnd));
            lines.add(" ".repeat(prefix.length() + (start - lineStart)) + "^".repeat(Math.max(1, caretEnd - start)));
        }
        if (messages.isEmpty()) {
            messages.add("line " + lineOf(cell, offset) + ": the snippet was rejected");
            lines.add("error: the snippet was rejected: " + snippetSource.strip());
        }
        return new CellException.CompilationException(String.join("; ", messages), lines);
    }

    /** A declaration used before what it depends on exists (JShell accepts the declaration itself). */
    static CellException.CompilationException unresolved(DeclarationSnippet s, List<String> missing, String cell, int offset) {
        String what = s.subKind().toString().startsWith("METHOD") ? "method " + s.name() + "()" : s.name();
        String msg = "line " + lineOf(cell, offset) + ": " + what + " cannot be used until "
                + (missing.isEmpty() ? "its dependencies are" : String.join(", ", missing) + (missing.size() == 1 ? " is" : " are")) + " declared";
        return new CellException.CompilationException(msg, List.of("error: " + msg));
    }

    static CellException.CompilationException incomplete(String cell, int offset) {
        String first = cell.substring(offset).lines().findFirst().orElse("").strip();
        String msg = "line " + lineOf(cell, offset) + ": incomplete code (a missing '}', ')' or ';'?): " + first;
        return new CellException.CompilationException(msg, List.of("error: " + msg));
    }

    /** User exception: class and message, the user's frames, then each cause, as Java prints them. */
    static CellException.EvalException eval(JShellException ex) {
        List<String> lines = new ArrayList<>();
        String cls = exceptionClass(ex);
        StackTraceElement[] frames = userFrames(ex.getStackTrace());
        // the toolkit's own exceptions say in their one line what went wrong and what to do: the cell's frames suffice
        if (ours(cls)) frames = Arrays.stream(frames).filter(f -> f.getFileName() != null && f.getFileName().startsWith("#"))
                .toArray(StackTraceElement[]::new);
        lines.add(headline(cls, ex.getMessage()));
        for (StackTraceElement f : frames) lines.add("    at " + frame(f));
        Throwable cause = ex.getCause();
        for (int depth = 0; cause != null && depth < 10; depth++, cause = cause.getCause()) {
            String cc = cause instanceof JShellException je ? exceptionClass(je) : cause.getClass().getName();
            lines.add("Caused by: " + headline(cc, cause.getMessage()));
            for (StackTraceElement f : userFrames(cause.getStackTrace())) lines.add("    at " + frame(f));
        }
        return new CellException.EvalException(cls, headline(cls, ex.getMessage()), frames, lines);
    }

    /** True for a {@link io.skillopt4j.SkillOptException} (a user mistake, a provider's failure, an interrupt). */
    static boolean ours(String cls) {
        try {
            return io.skillopt4j.SkillOptException.class.isAssignableFrom(Class.forName(cls, false, Diagnostics.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static String exceptionClass(JShellException ex) {
        return ex instanceof EvalException ee ? ee.getExceptionClassName() : ex.getClass().getName();
    }

    private static String headline(String cls, String message) {
        return message == null ? cls : cls + ": " + message;
    }

    /** The frames below the snippet's entry point: reflection and kernel frames are cut off. */
    static StackTraceElement[] userFrames(StackTraceElement[] all) {
        List<String> cut = List.of("jdk.internal.reflect.", "java.lang.reflect.", "jdk.jshell.",
                "io.skillopt4j.kernel.");
        return Arrays.stream(all).takeWhile(f -> cut.stream().noneMatch(f.getClassName()::startsWith))
                .toArray(StackTraceElement[]::new);
    }

    /** Snippet frames have no class and file {@code #<id>}: show them as {@code method (snippet #id, line n)}. */
    static String frame(StackTraceElement f) {
        String file = f.getFileName();
        if (file != null && file.startsWith("#")) {
            String m = f.getMethodName() == null || f.getMethodName().isEmpty() || f.getMethodName().startsWith("do_it$")
                    ? "" : f.getMethodName() + " ";
            return m + "(snippet " + file + ", line " + f.getLineNumber() + ")";
        }
        return f.toString();
    }

    /** 1-based line number of {@code pos} in {@code text}. */
    static int lineOf(String text, int pos) {
        return 1 + (int) text.substring(0, Math.min(pos, text.length())).chars().filter(c -> c == '\n').count();
    }
}
