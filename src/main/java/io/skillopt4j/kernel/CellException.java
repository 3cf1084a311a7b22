package io.skillopt4j.kernel;

import java.util.List;

/**
 * Immutable. Why a cell failed, formatted as IJava shows it ({@link #traceback()}); its stack trace is the user's
 * frames (or none), so kernel internals never reach the notebook.
 */
public abstract sealed class CellException extends RuntimeException
        permits CellException.CompilationException, CellException.EvalException, CellException.MagicException {
    private final List<String> traceback;

    private CellException(String message, List<String> traceback, boolean userFrames) {
        super(message, null, false, userFrames);
        this.traceback = List.copyOf(traceback);
    }

    public List<String> traceback() {
        return traceback;
    }

    /** The cell did not compile (or was incomplete); the message holds the compiler's diagnostics. */
    public static final class CompilationException extends CellException {
        public CompilationException(String message, List<String> traceback) {
            super(message, traceback, false);
        }
    }

    /** A magic line ({@code %classpath}, {@code %maven}, ...) failed or is unknown: one line says why. */
    public static final class MagicException extends CellException {
        public MagicException(String message) {
            super(message, List.of("error: " + message), false);
        }
    }

    /** User code threw: the message is {@code <exception class>: <message>}, frames are the user's. */
    public static final class EvalException extends CellException {
        private final String exceptionClass;

        public EvalException(String exceptionClass, String message, StackTraceElement[] frames, List<String> traceback) {
            super(message, traceback, true);
            this.exceptionClass = exceptionClass;
            setStackTrace(frames);
        }

        /** Fully qualified class name of what the user's code threw. */
        public String exceptionClass() {
            return exceptionClass;
        }
    }
}
