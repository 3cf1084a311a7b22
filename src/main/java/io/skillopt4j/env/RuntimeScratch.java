package io.skillopt4j.env;

import io.skillopt4j.internal.AtomicFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;

/** Thread-safe. A benchmark's scratch folder in the run folder, for bundled scripts written at first use. */
public final class RuntimeScratch {
    private final Path dir;

    public RuntimeScratch(Path outRoot, String benchmark) {
        this.dir = outRoot.resolve("_" + benchmark + "_runtime").toAbsolutePath().normalize();
    }

    /** Where {@code name} lives once {@link #file} wrote it (absolute: commands run in other folders). */
    public Path path(String name) { return dir.resolve(name); }

    /** Returns {@code name}'s path, writing {@code text} there first unless a file is already there. */
    public Path file(String name, Supplier<String> text) {
        Path f = path(name);
        // two first rollouts may both write: the same bytes, each an atomic rename, so either is whole
        if (!Files.isRegularFile(f)) AtomicFiles.writeString(f, text.get());
        return f;
    }

    /** Runs a pre-call check with a temp folder (the probes' working folder and HOME), removed afterwards. */
    public static <T> T probe(String benchmark, Function<Path, T> check) {
        Path tmp;
        try {
            tmp = Files.createTempDirectory("skillopt-" + benchmark + "-check");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp folder for the " + benchmark + " runtime check: " + e.getMessage(), e);
        }
        try {
            return check.apply(tmp);
        } finally {
            AtomicFiles.deleteTreeQuietly(tmp);
        }
    }
}
