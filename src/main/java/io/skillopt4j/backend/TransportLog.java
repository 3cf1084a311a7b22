package io.skillopt4j.backend;

import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Thread-safe. Where the transport's retry chatter goes instead of stderr: inside {@link #during}, a run's
 * {@code logs/transport.log} (created on the first line, so a fault-free run has none); outside, the
 * {@code io.skillopt4j.backend.http} logger at DEBUG. Lines are scrubbed of secrets.
 *
 * <pre>{@code
 * TransportLog.during(runDir.resolve("logs/transport.log"), () -> trainer.train());
 * }</pre>
 */
public final class TransportLog {
    private static final System.Logger LOG = System.getLogger("io.skillopt4j.backend.http");
    private static final InheritableThreadLocal<TransportLog> CURRENT = new InheritableThreadLocal<>();

    private final Path file;
    private boolean broken;

    private TransportLog(Path file) { this.file = file; }

    /** Runs {@code work} with transport lines of this thread (and threads it starts) appended to {@code file}. */
    public static <T> T during(Path file, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, new TransportLog(file), work);
    }

    /** Appends one line (timestamped, scrubbed) to this thread's log, else logs it at DEBUG. */
    public static void line(String text) {
        String clean = Redactor.scrub(text == null ? "" : text).replaceAll("[\\r\\n]+", " ");
        TransportLog l = CURRENT.get();
        if (l == null) LOG.log(System.Logger.Level.DEBUG, clean);
        else l.append(Instant.now() + " " + clean + "\n");
    }

    private synchronized void append(String line) {
        if (broken) return;
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException | UncheckedIOException e) {
            // a log that cannot be written must not fail a call
            broken = true;
            LOG.log(System.Logger.Level.DEBUG, "transport log " + file + " not writable: " + e.getMessage());
        }
    }
}
