package io.skillopt4j.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.skillopt4j.notebook.Display;
import io.skillopt4j.notebook.Startup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Not thread-safe; Jupyter sends one request at a time. The SkillOpt4J Jupyter kernel: Java cells run by
 * {@link JShellEngine} in this JVM, rich values rendered by {@link Display}, errors shown as IJava shows them.
 * Installed by {@code skillopt kernel install}.
 */
public final class SkillOptKernel extends BaseKernel {
    // Kept strongly: java.util.logging forgets levels set on loggers nobody references.
    private static final Logger ROOT_LOGGER = Logger.getLogger("");
    private static volatile SkillOptKernel current;

    private final JShellEngine engine;
    private final Magics magics;
    private final LanguageInfo languageInfo;

    public SkillOptKernel(JShellEngine engine) {
        this.engine = engine;
        this.magics = new Magics(engine, LocalMaven.fromSettings());
        this.languageInfo = new LanguageInfo("java", Runtime.version().toString(), "text/x-java", ".jshell",
                "java", "java", "java");
    }

    /** The kernel running in this JVM, or null. */
    public static SkillOptKernel instance() {
        return current;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java -cp skillopt4j-all.jar io.skillopt4j.kernel.SkillOptKernel <connection-file>");
            System.exit(2);
        }
        // The basekernel logs "Loop starting..." at INFO once per channel; keep stderr for real problems.
        ROOT_LOGGER.setLevel(Level.WARNING);
        quietSlf4j();
        KernelConnectionProperties props = KernelConnectionProperties.parse(Files.readString(Path.of(args[0])));
        SkillOptKernel kernel = start(JShellEngine.systemClassPath());
        JupyterConnection connection = new JupyterConnection(props);
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        connection.waitUntilClose();
        kernel.engine.close();
    }

    /** Tablesaw's slf4j-api without a provider warns on first use (in a cell): initialise it now, stderr muted. */
    private static void quietSlf4j() {
        java.io.PrintStream err = System.err;
        try {
            System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            // slf4j is not on the class path: nothing to quiet
        } finally {
            System.setErr(err);
        }
    }

    /** Builds the session (startup imports run before the first cell) and makes it the running kernel. */
    static SkillOptKernel start(List<String> classPath) {
        JShellEngine engine = JShellEngine.create(classPath);
        List<String> problems = engine.startup(Startup.session());
        problems.forEach(p -> System.err.println("skillopt kernel: startup: " + p));
        SkillOptKernel kernel = new SkillOptKernel(engine);
        current = kernel;
        Display.attach(kernel);
        Display.register();
        return kernel;
    }

    public static String startupScript() {
        return Startup.script();
    }

    @Override public DisplayData eval(String code) {
        Optional<JShellEngine.Value> v = magics.eval(code);
        if (v.isEmpty()) return null;
        Object o = v.get().value();
        if (o == null) return new DisplayData("null");
        if (o instanceof DisplayData d) return d;
        return getRenderer().render(o);
    }

    @Override public ReplacementOptions complete(String code, int at) {
        JShellEngine.Completion c = engine.complete(code, at);
        return c.options().isEmpty() ? null : new ReplacementOptions(c.options(), c.start(), c.end());
    }

    @Override public String isComplete(String code) {
        return switch (engine.completeness(code)) {
            case "complete" -> IS_COMPLETE_YES;
            case "invalid" -> IS_COMPLETE_BAD;
            default -> "    "; // incomplete: the front end continues with this indent
        };
    }

    @Override public List<String> formatError(Exception e) {
        if (e instanceof CellException ce) return ce.traceback();
        return super.formatError(e);
    }

    @Override public LanguageInfo getLanguageInfo() {
        return languageInfo;
    }

    @Override public String getBanner() {
        return "SkillOpt4J Java kernel (JShell " + Runtime.version() + ")";
    }

    @Override public void interrupt() {
        engine.interrupt();
    }

    @Override public void onShutdown(boolean isRestarting) {
        engine.close();
        if (current == this) {
            current = null;
            Display.attach(null);
        }
    }
}
