package io.skillopt4j.env;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;

/**
 * Stateless. Images as chat data URLs ({@code data:image/png;base64,...}). The {@code image_detail} flag is applied by
 * the chat backends, which read it from the same flat config and send {@code image_url.detail}.
 */
public final class Images {
    private Images() {}

    /** MIME type from the file extension; unknown → image/png (upstream's default). */
    public static String mime(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".jpg") || n.endsWith(".jpeg")) return "image/jpeg";
        if (n.endsWith(".gif")) return "image/gif";
        if (n.endsWith(".webp")) return "image/webp";
        if (n.endsWith(".bmp")) return "image/bmp";
        return "image/png";
    }

    /** Returns the file as a base64 data URL. */
    public static String dataUrl(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read image " + file + ": " + e.getMessage(), e);
        }
        return "data:" + mime(file) + ";base64," + Base64.getEncoder().encodeToString(bytes);
    }

    /** Resolves an item's image path: absolute as is, else under {@code dataRoot} when given, else the working directory. */
    public static Path resolve(String path, String dataRoot) {
        Path p = Path.of(path);
        if (p.isAbsolute()) return p;
        if (dataRoot != null && !dataRoot.isBlank()) return Path.of(dataRoot).resolve(p);
        return p.toAbsolutePath();
    }
}
