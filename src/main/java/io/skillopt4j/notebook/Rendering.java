package io.skillopt4j.notebook;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. One object rendered for a notebook: MIME type → content (text, or base64 for images),
 * always with a {@code text/plain} entry so plain JShell and text-only front ends stay readable.
 */
public record Rendering(Map<String, String> data) {
    public static final String TEXT = "text/plain";
    public static final String HTML = "text/html";
    public static final String MARKDOWN = "text/markdown";
    public static final String PNG = "image/png";

    public Rendering {
        Objects.requireNonNull(data, "data");
        if (!data.containsKey(TEXT)) throw new IllegalArgumentException("a rendering needs a text/plain entry, got " + data.keySet());
        data = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    public static Rendering text(String text) {
        return new Rendering(Map.of(TEXT, text));
    }

    /** {@code mime} content plus its {@code text/plain} fallback. */
    public static Rendering of(String mime, String content, String text) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(mime, content);
        m.put(TEXT, text);
        return new Rendering(m);
    }

    public String text() {
        return data.get(TEXT);
    }

    public boolean has(String mime) {
        return data.containsKey(mime);
    }

    /** The content for {@code mime}, or null when absent. */
    public String get(String mime) {
        return data.get(mime);
    }

    @Override public String toString() {
        return text();
    }
}
