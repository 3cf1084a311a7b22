package io.skillopt4j.kernel;

import jdk.jshell.execution.DirectExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;

/**
 * Not thread-safe; one per {@link JShellEngine}, which runs one snippet at a time. Runs snippets in this
 * JVM (so display helpers reach the kernel) and keeps the real result object of the last snippet, which
 * JShell itself would only hand back as a {@code String}.
 */
final class StashingExecutionControl extends DirectExecutionControl {
    private Optional<JShellEngine.Value> value = Optional.empty();
    private Thread running; // guarded by this

    @Override protected String invoke(Method doit) throws Exception {
        value = Optional.of(new JShellEngine.Value(doit.invoke(null)));
        // JShell's own String form is never shown (the kernel renders the object), so skip toString().
        return "";
    }

    @Override protected synchronized void clientCodeEnter() {
        running = Thread.currentThread();
    }

    /**
     * Clears the interrupt meant for the cell: code that was interrupted leaves the flag set, as it should (a training
     * does), and on the kernel's shell thread it would end the loop that runs every later cell.
     */
    @Override protected void clientCodeLeave() {
        synchronized (this) {
            running = null; // from here on stop() interrupts nothing
        }
        Thread.interrupted();
    }

    /** Forgets the previous value; call before each snippet. */
    void clear() {
        value = Optional.empty();
    }

    /** The last snippet's result object, if it returned one. */
    Optional<JShellEngine.Value> value() {
        return value;
    }

    /** Interrupts the thread running user code, if any (cooperative: code must check the flag or block). */
    @Override public synchronized void stop() {
        if (running != null) running.interrupt();
    }

    /** Hands JShell this exact control instance. */
    static ExecutionControlProvider provider(StashingExecutionControl control) {
        return new ExecutionControlProvider() {
            @Override public String name() {
                return "skillopt-direct";
            }

            @Override public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
                return control;
            }
        };
    }
}
