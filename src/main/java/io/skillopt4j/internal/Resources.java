package io.skillopt4j.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Thread-safe. Bundled UTF-8 text resources (prompts, templates, scripts), read once and cached. */
public final class Resources {
    private static final Map<String, Optional<String>> CACHE = new ConcurrentHashMap<>();

    private Resources() {}

    /** Returns the text of the class-path resource at the absolute {@code path}, or empty when it is not bundled. */
    public static Optional<String> find(String path) {
        return CACHE.computeIfAbsent(path, p -> {
            try (InputStream in = Resources.class.getResourceAsStream(p)) {
                return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read resource " + p, e);
            }
        });
    }

    /** Returns the text at {@code path}; a missing resource is a packaging bug (IllegalStateException). */
    public static String text(String path) {
        return find(path).orElseThrow(() -> new IllegalStateException("missing bundled resource " + path));
    }
}
