package io.skillopt4j.env;

import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Stateless. Runs a child with a scrubbed environment (no keys leak) and a timeout that kills its whole tree. */
public final class ChildProcess {
    public record Result(int exitCode, String stdout, String stderr, boolean timedOut) {
        public boolean ok() { return !timedOut && exitCode == 0; }
    }

    private ChildProcess() {}

    /** Runs {@code command} in {@code cwd}; {@code home} becomes HOME; {@code extraEnv} is added after scrubbing. */
    public static Result run(List<String> command, Path cwd, Path home, Duration timeout, Map<String, String> extraEnv) {
        try {
            Files.createDirectories(cwd);
            Path out = Files.createTempFile("skillopt-child", ".out");
            Path err = Files.createTempFile("skillopt-child", ".err");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
                Map<String, String> env = pb.environment();
                scrub(env, List.of("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT"), home);
                env.put("TMPDIR", cwd.toAbsolutePath().toString());
                env.put("PYTHONIOENCODING", "utf-8");
                env.put("PYTHONDONTWRITEBYTECODE", "1");
                if (extraEnv != null) extraEnv.forEach((k, v) -> { if (!Redactor.isSecretKey(k)) env.put(k, v); });
                Process p = pb.start();
                boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (!done) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
                return new Result(done ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8), !done);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            return new Result(-1, "", "cannot run " + command.get(0) + ": " + e.getMessage(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "", "interrupted", true);
        }
    }

    /** Empties {@code env} but for this process's {@code keep} variables, then sets HOME to {@code home}. */
    public static void scrub(Map<String, String> env, List<String> keep, Path home) {
        env.clear();
        keep.stream().filter(k -> System.getenv(k) != null).forEach(k -> env.put(k, System.getenv(k)));
        env.put("HOME", home.toAbsolutePath().toString());
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).startsWith("windows") ? "NUL" : "/dev/null");
    }

    /** Returns the first interpreter among {@code candidates} for which {@code python -c <probe>} exits 0, or null. */
    public static String findPython(List<String> candidates, String probe, Path scratch) {
        return candidates.stream().filter(c -> c != null && !c.isBlank())
                .filter(c -> run(List.of(c, "-c", probe), scratch, scratch, Duration.ofSeconds(30), Map.of()).ok()).findFirst().orElse(null);
    }
}
