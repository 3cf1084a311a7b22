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
 * Thread-safe. Content-addressed text blobs ({@code <dir>/<sha256>}) that activities name instead of carrying texts in
 * Temporal payloads; coordinator and workers must share the directory. Writes are atomic.
 */
final class Blobs {
    private final Path dir;

    Blobs(Path dir) { this.dir = dir.toAbsolutePath().normalize(); }

    Path dir() { return dir; }

    /** Stores {@code text} and returns its reference (the SHA-256 of its UTF-8 bytes). */
    String put(String text) {
        String ref = Hashes.sha256Hex(text);
        Path f = dir.resolve(ref);
        if (!Files.isRegularFile(f)) AtomicFiles.writeRecomputable(f, text);
        return ref;
    }

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

    Map<String, Object> getJson(String ref) { return Json.parseObject(get(ref)); }
}
