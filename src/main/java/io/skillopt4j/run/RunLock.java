package io.skillopt4j.run;

import io.skillopt4j.ConfigException;
import io.skillopt4j.RunFolderLocked;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Thread-safe. One process's ownership of a run folder: {@code <run>/.skillopt.lock}, OS-locked while a training or
 * evaluation writes the folder and holding one JSON line {@code {pid, host, started, command}} (empty at rest). The
 * kernel drops the lock with its process, so a file left by {@code kill -9} is taken over ({@link #staleHolder()});
 * only where the file system refuses locks does the recorded pid decide. The file is never unlinked, so two processes
 * cannot lock two files of one name. A second acquire fails at once with {@link RunFolderLocked}, changing nothing.
 *
 * <pre>{@code
 * try (RunLock lock = RunLock.acquire(outRoot, "train")) { ... write the folder ... }
 * }</pre>
 */
public final class RunLock implements AutoCloseable {
    public static final String FILE = ".skillopt.lock";
    /** Folders locked by this JVM: POSIX drops a lock when any descriptor of the file closes, so a second must not open it. */
    private static final Map<Path, Map<String, Object>> HELD = new HashMap<>(); // guarded by itself

    private final Path root;
    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private final Map<String, Object> staleHolder;
    private boolean closed; // guarded by HELD

    private RunLock(Path root, Path key, FileChannel channel, FileLock lock, Map<String, Object> staleHolder) {
        this.root = root;
        this.key = key;
        this.channel = channel;
        this.lock = lock;
        this.staleHolder = staleHolder;
    }

    /** Creates {@code root} if needed and locks it for {@code command}; throws {@link RunFolderLocked} when it is held. */
    public static RunLock acquire(Path root, String command) {
        Path dir = root.toAbsolutePath().normalize();
        Path key;
        try {
            Files.createDirectories(dir);
            key = dir.toRealPath();
        } catch (FileAlreadyExistsException e) {
            throw new ConfigException("out_root " + dir + " is not a directory");
        } catch (IOException e) {
            throw new ConfigException("out_root " + dir + ": cannot create the run folder (" + e.getMessage() + ")");
        }
        Path file = key.resolve(FILE);
        synchronized (HELD) {
            Map<String, Object> mine = HELD.get(key);
            if (mine != null) throw locked(dir, mine, " (another run in this process)");
            FileChannel ch;
            try {
                ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new ConfigException("out_root " + dir + ": cannot open " + FILE + " (" + e.getMessage() + ")");
            }
            try {
                Map<String, Object> previous = holder(ch);
                FileLock l;
                try {
                    l = ch.tryLock();
                    if (l == null) throw locked(dir, previous, "");
                } catch (OverlappingFileLockException e) {
                    throw locked(dir, previous, " (another run in this process)");
                } catch (IOException unsupported) {
                    // a file system without locks: the recorded pid is all there is
                    if (alive(previous)) throw locked(dir, previous, "");
                    l = null;
                }
                Map<String, Object> me = Json.obj("pid", ProcessHandle.current().pid(), "host", host(),
                        "started", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), "command", command);
                ch.truncate(0);
                // not forced to disk: others read it through the page cache, and a line lost to a power failure is harmless
                ch.write(ByteBuffer.wrap((Json.line(me) + "\n").getBytes(StandardCharsets.UTF_8)), 0);
                HELD.put(key, me);
                // a holder line left behind means that process died without closing: its temp files are litter
                if (!previous.isEmpty()) AtomicFiles.sweepStaleTemps(dir);
                return new RunLock(dir, key, ch, l, previous.isEmpty() ? null : previous);
            } catch (RuntimeException | IOException e) {
                try { ch.close(); } catch (IOException ignored) { /* already failing */ }
                if (e instanceof RuntimeException r) throw r;
                throw new ConfigException("out_root " + dir + ": cannot lock " + FILE + " (" + e.getMessage() + ")");
            }
        }
    }

    public Path root() { return root; }

    /** Returns the holder line a killed process left behind (its OS lock gone), if this lock took one over. */
    public Optional<Map<String, Object>> staleHolder() { return Optional.ofNullable(staleHolder); }

    /** Empties the lock file and releases the lock; idempotent. */
    @Override public void close() {
        synchronized (HELD) {
            if (closed) return;
            closed = true;
            try {
                channel.truncate(0);
                if (lock != null) lock.release();
            } catch (IOException ignored) {
                // closing the channel below releases the lock in any case
            } finally {
                try { channel.close(); } catch (IOException ignored) { /* the kernel releases it with the descriptor */ }
                HELD.remove(key);
            }
        }
    }

    private static RunFolderLocked locked(Path dir, Map<String, Object> holder, String where) {
        long pid = holder.get("pid") instanceof Number n ? n.longValue() : -1;
        String who = pid < 0 ? "another process" : "pid " + pid + (holder.get("host") != null ? " on " + holder.get("host") : "");
        String what = holder.get("command") != null ? ", " + holder.get("command") + " since " + holder.get("started") : "";
        return new RunFolderLocked(dir, pid, "run folder " + dir + " is in use by " + who + what + where
                + "; wait for it to finish or choose another out_root");
    }

    /** The holder line in the file, empty when there is none. */
    private static Map<String, Object> holder(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
        while (buf.hasRemaining() && ch.read(buf, buf.position()) > 0) { /* fill */ }
        String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
        if (text.isBlank()) return Map.of();
        try {
            return Json.parseObject(text.strip());
        } catch (RuntimeException torn) {
            return Map.of(); // a holder killed mid-write: nothing to name
        }
    }

    private static boolean alive(Map<String, Object> holder) {
        if (!(holder.get("pid") instanceof Number n) || !host().equals(holder.get("host"))) return !holder.isEmpty();
        return ProcessHandle.of(n.longValue()).map(ProcessHandle::isAlive).orElse(false);
    }

    static String host() {
        if (HOST != null) return HOST;
        String h = System.getenv("HOSTNAME");
        // then the kernel's name, which getLocalHost() would also resolve through the (maybe slow) resolver
        if (h == null || h.isBlank()) {
            try {
                h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            } catch (IOException | RuntimeException notLinux) {
                h = "";
            }
        }
        if (h.isEmpty()) {
            try { h = InetAddress.getLocalHost().getHostName(); } catch (IOException e) { h = "localhost"; }
        }
        HOST = h;
        return h;
    }

    private static volatile String HOST;
}
