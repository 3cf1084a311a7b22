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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Thread-safe. Writes files so that a reader (or a process killed mid-write) only ever sees the old content or the
 * new: write a sibling temp file, force it to disk, rename it over the target.
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
     * As {@link #writeString(Path, String)} without forcing the data to disk, for files a resumed run can recompute:
     * still all-or-nothing for a killed process, but a power cut can lose them.
     */
    public static void writeRecomputable(Path file, String text) {
        write(file, text.getBytes(StandardCharsets.UTF_8), false);
    }

    /** Atomically replaces {@code file} with {@code bytes}, creating parent folders. */
    public static void write(Path file, byte[] bytes) {
        write(file, bytes, true);
    }

    private static void write(Path file, byte[] bytes, boolean durable) {
        rename(writeTemp(file, bytes, durable && fsync()), file);
    }

    /** Writes {@code bytes} to a fresh sibling temp file of {@code file} and returns it. */
    private static Path writeTemp(Path file, byte[] bytes, boolean force) {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp" + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet());
        try {
            try (FileChannel ch = inFolder(dir, () -> FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) ch.write(b);
                if (force) ch.force(true);
            }
            return tmp;
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** An I/O step that creates a file in a folder. */
    @FunctionalInterface
    public interface Creation<T> {
        T run() throws IOException;
    }

    /** Runs {@code create}, which makes a file in {@code dir}, again after making {@code dir} when it is missing. */
    public static <T> T inFolder(Path dir, Creation<T> create) throws IOException {
        try {
            return create.run();
        } catch (java.nio.file.NoSuchFileException noFolder) {
            Files.createDirectories(dir);
            return create.run();
        }
    }

    private static final Pattern TEMP = Pattern.compile("\\..+\\.tmp(\\d+)-\\d+");

    /**
     * Deletes the temp files in {@code root}'s tree left by writers no longer running (killed before the rename);
     * returns how many. The caller must own the folder (its run lock); a temp file of a live pid is kept.
     */
    public static int sweepStaleTemps(Path root) {
        if (!Files.isDirectory(root)) return 0;
        int n = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = TEMP.matcher(f.getFileName().toString());
                boolean dead = m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).map(h -> !h.isAlive()).orElse(true);
                if (dead && deleteQuietly(f)) n++;
            }
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            // best effort: a leftover temp file never affects a reader, which looks only at renamed files
        }
        return n;
    }

    /**
     * Cuts a torn last line (left by a process killed mid-append) from every {@code .jsonl} file in {@code root}'s
     * tree before a resumed run appends, since a row glued to it would fail SkillOpt's {@code json.loads} per line.
     * The caller must own the folder (its run lock). Returns the repaired files.
     */
    public static java.util.List<Path> repairTornLines(Path root) {
        java.util.List<Path> repaired = new java.util.ArrayList<>();
        if (!Files.isDirectory(root)) return repaired;
        java.util.List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(f)).toList();
        } catch (IOException | UncheckedIOException e) {
            throw new UncheckedIOException("cannot list " + root + ": " + e.getMessage(),
                    e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
        }
        for (Path f : files) if (cutTornTail(f)) repaired.add(f);
        return repaired;
    }

    /** Truncates {@code file} after its last {@code '\n'} (to empty when it has none); true when something was cut. */
    public static boolean cutTornTail(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            long keep = 0;
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8192);
            for (long end = size; end > 0 && keep == 0; ) {
                long start = Math.max(0, end - b.capacity());
                b.clear().limit((int) (end - start));
                while (b.hasRemaining() && ch.read(b, start + b.position()) >= 0) { /* fill */ }
                if (end == size && b.position() > 0 && b.get(b.position() - 1) == '\n') return false; // not torn
                for (int i = b.position() - 1; i >= 0 && keep == 0; i--) if (b.get(i) == '\n') keep = start + i + 1;
                end = start;
            }
            if (size == 0) return false;
            ch.truncate(keep);
            ch.force(true);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot repair the torn last line of " + file + ": " + e.getMessage(), e);
        }
    }

    private static void rename(Path tmp, Path file) {
        try {
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Atomically replaces several files as one {@link #write(Path, byte[])} per file in the given order would, but
     * with one durability point: every temp file is forced to disk (in parallel), and only then are they renamed.
     */
    public static void writeAll(java.util.LinkedHashMap<Path, byte[]> files) {
        java.util.List<Path> targets = java.util.List.copyOf(files.keySet());
        Path[] tmps = new Path[targets.size()];
        boolean force = fsync();
        java.util.List<java.util.concurrent.Future<Path>> forced = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < targets.size(); i++) {
                Path f = targets.get(i);
                byte[] b = files.get(f);
                if (force && i < targets.size() - 1) forced.add(FORCERS.submit(() -> writeTemp(f, b, true)));
                else tmps[i] = writeTemp(f, b, force);
            }
            for (int i = 0; i < forced.size(); i++) tmps[i] = forced.get(i).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException("interrupted while writing " + targets));
        } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
            // nothing is renamed yet: drop every temp file written so far, the old files stay as they were
            for (int i = 0; i < forced.size(); i++) {
                try { if (tmps[i] == null) tmps[i] = forced.get(i).get(); } catch (Exception ignored) { /* failed one */ }
            }
            for (Path t : tmps) if (t != null) deleteQuietly(t);
            Throwable c = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
            throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
        }
        for (int i = 0; i < targets.size(); i++) rename(tmps[i], targets.get(i));
    }

    private static final java.util.concurrent.ExecutorService FORCERS = java.util.concurrent.Executors.newCachedThreadPool(Daemons.named("skillopt-fsync"));

    /** Whether writes are flushed to disk before the rename; {@code -Dskillopt.fsync=false} is for throwaway runs. */
    static boolean fsync() { return !"false".equalsIgnoreCase(System.getProperty("skillopt.fsync", "true")); }

    /** Appends one line to {@code file}, as upstream's results.jsonl does; see {@link #repairTornLines} for a kill. */
    public static void appendLine(Path file, String line) {
        Path abs = file.toAbsolutePath().normalize();
        synchronized (APPEND_LOCKS[Math.floorMod(abs.hashCode(), APPEND_LOCKS.length)]) {
            try {
                byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
                inFolder(abs.getParent(), () -> Files.write(file, b, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
            }
        }
    }

    // appends to one file never interleave, to different files rarely wait; striped so the locks stay bounded
    private static final Object[] APPEND_LOCKS = Stream.generate(Object::new).limit(64).toArray();

    /** Deletes a tree; absent is fine. Throws when something cannot be deleted, for callers that need it empty. */
    public static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Deletes a tree, best effort: what cannot be deleted is left, and nothing throws. */
    public static void deleteTreeQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(AtomicFiles::deleteQuietly);
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: a leftover costs only disk
        }
    }

    private static boolean deleteQuietly(Path p) {
        try {
            return Files.deleteIfExists(p);
        } catch (IOException ignored) {
            return false; // best effort
        }
    }
}
