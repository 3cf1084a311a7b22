package io.skillopt4j.notebook;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Stateless. What a notebook session evaluates before the first cell: our kernel and JJava run {@link #session()};
 * plain JShell gets the same with {@code jshell --startup DEFAULT --startup skillopt.jsh}.
 */
public final class Startup {
    /** The startup script shipped in the jar (also for {@code jshell --startup}). */
    public static final String RESOURCE = "/skillopt.jsh";

    /** The imports the jshell tool's DEFAULT startup gives, so cells read the same as in jshell. */
    public static final String JSHELL_DEFAULT_IMPORTS = String.join("\n",
            "import java.io.*;", "import java.math.*;", "import java.net.*;", "import java.nio.file.*;",
            "import java.util.*;", "import java.util.concurrent.*;", "import java.util.function.*;",
            "import java.util.prefs.*;", "import java.util.regex.*;", "import java.util.stream.*;");

    private Startup() {}

    /** The text of {@code skillopt.jsh}: the toolkit's imports and {@code Display.register()}. */
    public static String script() {
        try (InputStream in = Startup.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException(RESOURCE + " is missing from the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** The JDK's default imports, then {@link #script()}: what a kernel session runs first. */
    public static String session() {
        return JSHELL_DEFAULT_IMPORTS + "\n" + script();
    }
}
