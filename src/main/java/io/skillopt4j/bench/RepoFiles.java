package io.skillopt4j.bench;

import io.skillopt4j.ConfigException;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository the demo and the benchmarks read, found from any working directory. */
public final class RepoFiles {
    private RepoFiles() {}

    /**
     * The demo's config under the working directory, else under the nearest folder above the running jar (a jar in
     * {@code target/} finds its repository); throws ConfigException naming the file when neither has it.
     */
    public static Path demoConfig() {
        String rel = "configs/demo/default.yaml";
        Path p = Path.of(rel).toAbsolutePath();
        if (Files.exists(p)) return p;
        try {
            Path jar = Path.of(RepoFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path d = jar.getParent(); d != null; d = d.getParent())
                if (Files.exists(d.resolve(rel))) return d.resolve(rel);
        } catch (Exception unknownLocation) { /* fall through to the error */ }
        throw new ConfigException("cannot find " + rel + ": run from the repository root or pass --config <yaml>");
    }
}
