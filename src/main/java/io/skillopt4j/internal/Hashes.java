package io.skillopt4j.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Immutable (static). SHA-256 digests: skill hashes, cache keys, deterministic seeds. */
public final class Hashes {
    private Hashes() {}

    /** Returns SHA-256 of {@code bytes}. */
    public static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }

    /** Returns SHA-256 of the UTF-8 bytes of {@code text}. */
    public static byte[] sha256(String text) { return sha256(text.getBytes(StandardCharsets.UTF_8)); }

    /**
     * Returns SHA-256 of the UTF-8 bytes of {@code text} as lower-case hex. The last few texts' digests are kept: a
     * training run hashes the same skill for every rollout batch (folder stamps, skill ids), and a cold JVM runs
     * SHA-256 interpreted, ~1 ms for a few KB.
     */
    public static String sha256Hex(String text) {
        synchronized (RECENT) {
            for (int i = 0; i < RECENT.length; i += 2) {
                Object k = RECENT[i];
                if (k == text || k != null && k.hashCode() == text.hashCode() && k.equals(text)) return (String) RECENT[i + 1];
            }
        }
        String hex = HexFormat.of().formatHex(sha256(text));
        if (text.length() > 65_536) return hex; // request bodies of batch ids: not kept alive
        synchronized (RECENT) {
            System.arraycopy(RECENT, 0, RECENT, 2, RECENT.length - 2); // newest first; the oldest drops out
            RECENT[0] = text;
            RECENT[1] = hex;
        }
        return hex;
    }

    /** Text, hex, text, hex...: eight recent digests. */
    private static final Object[] RECENT = new Object[16];
}
