package io.skillopt4j.run;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Hashes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Thread-safe. Keys a rollout folder's rows by their skill: {@code <dir>/.skill_sha256}, written before the first row.
 * Rows are reused by item id only, so {@link #claim} moves another skill's rows aside to
 * {@code results.<old hash>.jsonl} to be redone; unstamped rows (SkillOpt's own folders) are trusted.
 */
public final class RolloutStamp {
    public static final String FILE = ".skill_sha256";
    private static final Object LOCK = new Object();

    private RolloutStamp() {}

    /** The hash a stamp holds for {@code skill}. */
    public static String hash(String skill) { return Hashes.sha256Hex(skill == null ? "" : skill); }

    /** Stamps {@code dir} for {@code skill}, first moving rows of another stamped skill aside; true when it moved any. */
    public static boolean claim(Path dir, String skill) {
        String h = hash(skill);
        Path stamp = dir.resolve(FILE), results = dir.resolve("results.jsonl");
        synchronized (LOCK) {
            try {
                String stored = Files.isRegularFile(stamp) ? Files.readString(stamp, StandardCharsets.UTF_8).strip() : null;
                if (h.equals(stored)) return false;
                boolean moved = stored != null && Files.isRegularFile(results);
                if (moved) moveAside(dir, stored.isEmpty() ? "unknown" : stored);
                // not forced to disk, as the rows it keys are not; a killed process sees it before the first row
                AtomicFiles.writeRecomputable(stamp, h + "\n");
                return moved;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stamp rollout folder " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /** Moves {@code dir}'s rows aside and drops the stamp when they belong to another skill (a folder to hold none now). */
    public static void retireOthers(Path dir, String skill) {
        synchronized (LOCK) {
            String stored = stored(dir);
            if (stored == null || stored.equals(hash(skill))) return;
            try {
                if (Files.isRegularFile(dir.resolve("results.jsonl"))) moveAside(dir, stored);
                Files.deleteIfExists(dir.resolve(FILE));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot set aside the rows of " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /** Moves {@code results.jsonl} to {@code results.<hash prefix>.jsonl}. */
    private static void moveAside(Path dir, String hash) throws IOException {
        Path aside = dir.resolve("results." + hash.substring(0, Math.min(16, hash.length())) + ".jsonl");
        Files.move(dir.resolve("results.jsonl"), aside, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Returns the stored hash of {@code dir}'s rows, or null when the folder has no stamp. */
    public static String stored(Path dir) {
        Path stamp = dir.resolve(FILE);
        try {
            return Files.isRegularFile(stamp) ? Files.readString(stamp, StandardCharsets.UTF_8).strip() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
