package io.skillopt4j.bench;

import io.skillopt4j.config.Checks;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Not thread-safe (picocli fills it). The {@code --dir} of the benchmarks that run trainings ({@code bench train},
 * {@code bench engine}): where their runs go, a fresh temp folder when not given (kept, for inspection).
 */
final class RunsDirOptions {
    @Option(names = "--dir", description = "Where the runs go (default: a temp folder).") Path dir;

    /** Adds a problem when {@code --dir} cannot be an output folder; returns {@code checks}. */
    Checks check(Checks checks) { return checks.outputDir("--dir", dir); }

    /** Returns {@code --dir}, else a new temp folder named {@code prefix...}. */
    Path base(String prefix) throws IOException { return dir != null ? dir : Files.createTempDirectory(prefix); }
}
