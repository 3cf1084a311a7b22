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
 * Thread-safe. Keys a rollout folder's rows by the skill that produced them: {@code <dir>/.skill_sha256} holds the
 * SHA-256 of the skill text, written before the first row. A rollout reuses {@code results.jsonl} rows by item id
 * only, so a folder rolled out again with another skill (an eval into the same {@code out_root}, a test evaluation
 * after {@code --extend-epochs} found a new best skill, a re-merged candidate of an interrupted step) must not reuse
 * them: {@link #claim} moves those rows aside to {@code results.<old hash>.jsonl} and they are redone. Rows without a
 * stamp (folders of older versions and of SkillOpt itself) are trusted as before. The folder layout is SkillOpt's;
 * the stamp is the one extra file (docs/outputs.md).
 */
public final class RolloutStamp {
    /** The stamp's file name inside a rollout folder. */
    public static final String FILE = ".skill_sha256";
    private static final Object LOCK = new Object();

    private RolloutStamp() {}

    /** Returns the hash a stamp holds for {@code skill}. */
    public static String hash(String skill) { return Hashes.sha256Hex(skill == null ? "" : skill); }

    /**
     * Makes {@code dir} a rollout folder of {@code skill}: stamps it, first moving rows of another stamped skill aside.
     * Returns true when rows were moved aside.
     */
    public static boolean claim(Path dir, String skill) {
        String h = hash(skill);
        Path stamp = dir.resolve(FILE), results = dir.resolve("results.jsonl");
        synchronized (LOCK) {
            try {
                String stored = Files.isRegularFile(stamp) ? Files.readString(stamp, StandardCharsets.UTF_8).strip() : null;
                if (h.equals(stored)) return false;
                boolean moved = false;
                if (stored != null && Files.isRegularFile(results)) {
                    String tag = stored.isEmpty() ? "unknown" : stored.substring(0, Math.min(16, stored.length()));
                    Files.move(results, dir.resolve("results." + tag + ".jsonl"), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                    moved = true;
                }
                // not forced to disk: the rows it keys are plain appends, never forced either, and a killed process
                // sees the renamed stamp before the first row; an fsync here delayed every rollout's first call
                AtomicFiles.writeRecomputable(stamp, h + "\n");
                return moved;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stamp rollout folder " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Moves {@code dir}'s rows aside when they belong to another skill than {@code skill} (a folder that is to hold
     * no rows of its own now, as {@code test_eval_final} when the final skill is the best one) and drops the stamp.
     */
    public static void retireOthers(Path dir, String skill) {
        Path stamp = dir.resolve(FILE), results = dir.resolve("results.jsonl");
        synchronized (LOCK) {
            String stored = stored(dir);
            if (stored == null || stored.equals(hash(skill))) return;
            try {
                if (Files.isRegularFile(results)) {
                    Files.move(results, dir.resolve("results." + stored.substring(0, Math.min(16, stored.length())) + ".jsonl"),
                            StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
                Files.deleteIfExists(stamp);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot set aside the rows of " + dir + ": " + e.getMessage(), e);
            }
        }
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
