package io.skillopt4j.env;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Locale;

/** Stateless. Images as chat data URLs; the chat backends apply {@code image_detail}. */
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

    public static String dataUrl(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read image " + file + ": " + e.getMessage(), e);
        }
        return "data:" + mime(file) + ";base64," + Base64.getEncoder().encodeToString(bytes);
    }

    /** An item's image path: absolute as is, else under {@code dataRoot} when given, else the working directory. */
    public static Path resolve(String path, String dataRoot) {
        Path p = Path.of(path);
        if (p.isAbsolute()) return p;
        if (dataRoot != null && !dataRoot.isBlank()) return Path.of(dataRoot).resolve(p);
        return p.toAbsolutePath();
    }
}
