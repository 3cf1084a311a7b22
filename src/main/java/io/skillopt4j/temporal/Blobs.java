package io.skillopt4j.temporal;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Hashes;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Thread-safe. The artifact store the coordinator owns: content-addressed text blobs ({@code <dir>/<sha256>}) that
 * activities name instead of carrying skills, prompts, replies and trajectories in Temporal payloads. Coordinator
 * and workers must see the same directory (the run folder's {@code engine/blobs}; on several machines a shared
 * filesystem path, see docs/scale-out.md). Writes are atomic, so a reader never sees half a blob.
 */
final class Blobs {
    private final Path dir;

    Blobs(Path dir) { this.dir = dir.toAbsolutePath().normalize(); }

    /** Returns the directory, as activities name it. */
    Path dir() { return dir; }

    /** Stores {@code text} and returns its reference (the SHA-256 of its UTF-8 bytes). */
    String put(String text) {
        String ref = Hashes.sha256Hex(text);
        Path f = dir.resolve(ref);
        if (!Files.isRegularFile(f)) AtomicFiles.writeRecomputable(f, text);
        return ref;
    }

    /** Stores a JSON value and returns its reference. */
    String putJson(Object value) { return put(Json.compact(value)); }

    /** Returns the text of {@code ref}; a missing blob throws (the store is not shared with this machine). */
    String get(String ref) {
        if (ref == null || !ref.matches("[0-9a-f]{64}")) throw new IllegalArgumentException("not a blob reference: " + ref);
        try {
            return Files.readString(dir.resolve(ref), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("blob " + ref + " is not in " + dir
                    + " (coordinator and workers must share this directory): " + e.getMessage(), e);
        }
    }

    /** Returns the JSON object stored under {@code ref}. */
    Map<String, Object> getJson(String ref) { return Json.parseObject(get(ref)); }
}
