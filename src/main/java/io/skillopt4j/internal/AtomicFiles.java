package io.skillopt4j.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Thread-safe. Writes files so that a reader (or a process killed mid-write) only ever sees the old
 * content or the new content: write a sibling temp file, force it to disk, rename over the target.
 */
public final class AtomicFiles {
    private static final AtomicLong COUNTER = new AtomicLong();

    private AtomicFiles() {}

    /** Atomically replaces {@code file} with {@code text} (UTF-8), creating parent folders. */
    public static void writeString(Path file, String text) {
        write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Atomically replaces {@code file} with {@code value} as Python-style pretty JSON. */
    public static void writeJson(Path file, Object value) {
        writeString(file, Json.pretty(value));
    }

    /**
     * Like {@link #writeString(Path, String)} but without forcing the data to disk: for files a resumed run can
     * recompute (per-call artefacts). The rename still makes them all-or-nothing for a killed process; only a
     * power cut can lose them.
     */
    public static void writeRecomputable(Path file, String text) {
        write(file, text.getBytes(StandardCharsets.UTF_8), false);
    }

    /** Atomically replaces {@code file} with {@code bytes}, creating parent folders. */
    public static void write(Path file, byte[] bytes) {
        write(file, bytes, true);
    }

    private static void write(Path file, byte[] bytes, boolean durable) {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp" + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet());
        try {
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                if (durable && fsync()) ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try { Files.deleteIfExists(tmp); } catch (IOException ignored) { /* best effort */ }
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether writes are flushed to disk before the rename (default yes). {@code -Dskillopt.fsync=false} turns it
     * off for throwaway runs and benchmarks: an fsync costs ~10 ms on some disks, per file.
     */
    static boolean fsync() { return !"false".equalsIgnoreCase(System.getProperty("skillopt.fsync", "true")); }

    /**
     * Appends one line (a trailing newline is added) to {@code file}. Appends of whole lines are what
     * upstream's results.jsonl does; a reader must tolerate a torn last line after a kill.
     */
    public static synchronized void appendLine(Path file, String line) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }
}
