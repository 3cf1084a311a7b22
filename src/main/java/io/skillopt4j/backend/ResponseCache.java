package io.skillopt4j.backend;

import io.skillopt4j.config.Setting;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.skillopt4j.BackendException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Thread-safe. A content-addressed cache of chat replies on disk, one JSON file per request hash. In {@code replay}
 * mode a miss is an error: exact reproduction of an earlier run. Only replies are stored, never requests or keys.
 */
public final class ResponseCache {
    public enum Mode { OFF, READ_WRITE, REPLAY;
        /** Case-insensitive, '-' allowed. */
        public static Mode parse(String s) {
            String v = s == null ? "" : s.trim().toLowerCase(Locale.ROOT).replace('-', '_');
            return switch (v) {
                case "", "off", "false", "none", "0" -> OFF;
                case "read_write", "on", "true", "rw", "1" -> READ_WRITE;
                case "replay" -> REPLAY;
                default -> throw ConfigException.badValue("", "response_cache", s, "one of off, read_write, replay");
            };
        }
    }

    private static final ResponseCache OFF_CACHE = new ResponseCache(Mode.OFF, null);
    private final Mode mode;
    private final Path dir;

    private ResponseCache(Mode mode, Path dir) {
        this.mode = mode;
        this.dir = dir;
    }

    public static ResponseCache off() { return OFF_CACHE; }

    public static ResponseCache of(Mode mode, Path dir) {
        if (mode == Mode.OFF) return OFF_CACHE;
        if (dir == null) throw new IllegalArgumentException("response cache dir must be set when mode is " + mode);
        return new ResponseCache(mode, dir);
    }

    /** The cache of flat keys {@code response_cache} and {@code response_cache_dir} (default {@code defaultDir}). */
    public static ResponseCache from(FlatConfig cfg, Path defaultDir) {
        Mode m = Mode.parse(Setting.string("response_cache").of(cfg));
        String d = Setting.string("response_cache_dir").of(cfg);
        return of(m, d.isBlank() ? (defaultDir == null ? Path.of(".skillopt-cache", "responses") : defaultDir) : Path.of(d));
    }

    public boolean enabled() { return mode != Mode.OFF; }

    /**
     * Map entries by key: a backend's params or a tool's schema may be a {@code Map.of}, whose order changes from one
     * JVM to the next, and a key that changed with it would miss every reply a replayed run stored.
     */
    private static final ObjectWriter KEY_WRITER = Json.mapper().writer().with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    /** The sha256 hex key of one call. */
    public String key(String backend, String model, Map<String, Object> params, ChatRequest r) {
        Map<String, Object> p = Json.put(new LinkedHashMap<>(params), "max_completion_tokens", r.maxCompletionTokens(),
                "reasoning_effort", r.reasoningEffort(), "json_required", r.jsonRequired(), "tool_choice", r.toolChoice(),
                "tools", r.tools().stream().map(t -> List.of(t.name(), t.description(), t.parameters())).toList());
        Map<String, Object> k = Json.obj("backend", backend, "model", model, "params", p,
                "messages", r.messages().stream().map(m -> List.of(m.role(), m.content(), m.imageUrls(),
                        m.toolCalls().stream().map(c -> List.of(c.id(), c.name(), c.argumentsJson())).toList(),
                        m.toolCallId() == null ? "" : m.toolCallId())).toList());
        try {
            return HexFormat.of().formatHex(io.skillopt4j.internal.Hashes.sha256(KEY_WRITER.writeValueAsBytes(k)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot hash cache key", e);
        }
    }

    private Path file(String key) { return dir.resolve(key.substring(0, 2)).resolve(key + ".json"); }

    /** The stored reply, or null on a miss in read_write mode; a miss in replay mode throws. */
    public ChatResponse lookup(String key, String backend) {
        Path f = file(key);
        if (!Files.isRegularFile(f)) {
            if (mode == Mode.REPLAY) {
                throw new BackendException.NonRetriable(backend, 0, backend + ": response_cache=replay has no stored reply for this call (key "
                        + key.substring(0, 12) + " under " + dir + "); the request differs from the recorded run", null);
            }
            return null;
        }
        try {
            JsonNode n = Json.mapper().readTree(Files.readString(f, StandardCharsets.UTF_8));
            List<ToolCall> calls = new ArrayList<>();
            for (JsonNode c : n.path("tool_calls")) calls.add(new ToolCall(c.path("id").asText(), c.path("name").asText(), c.path("arguments").asText("{}")));
            JsonNode u = n.path("usage");
            Usage usage = new Usage(u.path("prompt_tokens").asLong(), u.path("completion_tokens").asLong(),
                    u.path("total_tokens").asLong(), u.path("cached_tokens").asLong());
            return new ChatResponse(n.path("text").asText(""), calls, usage, java.time.Duration.ZERO,
                    n.path("model").asText(""), n.path("reasoning").asText(""));
        } catch (IOException | RuntimeException e) {
            if (mode == Mode.REPLAY) throw new BackendException.NonRetriable(backend, 0, backend + ": unreadable cache file " + f + ": " + e.getMessage(), e);
            return null;
        }
    }

    /** Stores a reply (read_write mode only; replay never writes). */
    public void store(String key, String backend, String model, ChatResponse r) {
        if (mode != Mode.READ_WRITE) return;
        Usage u = r.usage();
        Map<String, Object> m = Json.obj("key", key, "backend", backend, "model", r.model().isEmpty() ? model : r.model(),
                "text", r.text(), "reasoning", r.reasoning(),
                "tool_calls", r.toolCalls().stream().map(c -> Json.obj("id", c.id(), "name", c.name(), "arguments", c.argumentsJson())).toList(),
                "usage", Json.obj("prompt_tokens", u.promptTokens(), "completion_tokens", u.completionTokens(),
                        "total_tokens", u.totalTokens(), "cached_tokens", u.cachedTokens()));
        AtomicFiles.writeRecomputable(file(key), Json.pretty(m)); // a lost entry is only a cache miss
    }

    @Override public String toString() { return "ResponseCache[" + mode.name().toLowerCase(Locale.ROOT) + (dir == null ? "" : ", " + dir) + "]"; }
}
