package io.skillopt4j.backend;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thread-safe. A run folder's {@code token_usage.jsonl}: one line per successful model call, appended before the
 * caller sees the reply, naming the result the call works for ({@code key}: an item's folder or the request's
 * fingerprint) and the attempt at it. {@link #kept} counts only each key's last attempt, so a run killed and resumed
 * any number of times reports the counts of one uninterrupted run (the cost ledger keeps every call: money spent).
 */
public final class UsageJournal {
    public static final String FILE = "token_usage.jsonl";

    private final Path file;
    private final String root;
    /** The attempt of calls outside any keyed scope: one per session of the run. */
    private final String session = "s" + Long.toHexString(new java.security.SecureRandom().nextLong());
    /** A stream, not a FileChannel: an interrupted rollout thread that writes must not close the file for all. */
    private OutputStream out;

    private UsageJournal(Path file, OutputStream out) {
        this.file = file;
        this.root = file.toAbsolutePath().normalize().getParent().toString() + java.io.File.separator;
        this.out = out;
    }

    /** Opens {@code file} for appends (created when missing); a torn last line is cut first. */
    public static UsageJournal open(Path file) {
        try {
            Path abs = file.toAbsolutePath().normalize();
            return AtomicFiles.inFolder(abs.getParent(), () -> {
                if (java.nio.file.Files.exists(abs)) AtomicFiles.cutTornTail(abs);
                return new UsageJournal(abs, new FileOutputStream(abs.toFile(), true));
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() { return file; }

    /** Appends one line of totals for {@code key} (null: always counted) in {@code attempt} (null: this session's). */
    synchronized void append(String key, String attempt, String role, String stage, UsageMeter.Counts c) {
        String k = key != null && key.startsWith(root) ? key.substring(root.length()) : key;
        Map<String, Object> m = k == null ? new LinkedHashMap<>()
                : Json.obj("key", k, "attempt", attempt == null ? session : attempt);
        Json.put(m, "role", role, "stage", stage, "calls", c.calls(), "prompt_tokens", c.promptTokens(),
                "completion_tokens", c.completionTokens(), "total_tokens", c.totalTokens(), "cached_tokens", c.cachedTokens());
        byte[] b = (Json.line(m) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (out == null) return; // closed: the run has ended and nobody reads its counts any more
            out.write(b); // one write of the whole line: a kill can cut only the last line
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Closes the file; later lines are dropped. */
    public synchronized void close() {
        if (out == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
            // every line was written whole when it was appended: nothing is lost
        }
        out = null;
    }

    /** Totals per "role\0stage" of the calls whose results were kept; a torn or foreign line is skipped. */
    public static Map<String, UsageMeter.Counts> kept(Path file) {
        List<Map<String, Object>> lines = Json.readObjectLines(file);
        Map<String, Object> lastAttempt = new HashMap<>();
        for (Map<String, Object> l : lines) if (l.get("key") != null) lastAttempt.put(String.valueOf(l.get("key")), l.get("attempt"));
        Map<String, UsageMeter.Counts> out = new TreeMap<>();
        for (Map<String, Object> l : lines) {
            if (!(l.get("role") instanceof String role) || !(l.get("stage") instanceof String stage)) continue;
            Object key = l.get("key");
            if (key != null && !java.util.Objects.equals(lastAttempt.get(String.valueOf(key)), l.get("attempt"))) continue;
            UsageMeter.Counts c = new UsageMeter.Counts(num(l, "calls"), num(l, "prompt_tokens"), num(l, "completion_tokens"),
                    num(l, "total_tokens"), num(l, "cached_tokens"), 0);
            out.merge(role + "\u0000" + stage, c, UsageMeter.Counts::plus);
        }
        return out;
    }

    private static long num(Map<String, Object> l, String k) { return l.get(k) instanceof Number n ? n.longValue() : 0; }
}
