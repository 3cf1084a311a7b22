package io.skillopt4j.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Stateless. SHA-256 digests: skill hashes, cache keys, deterministic seeds. */
public final class Hashes {
    private Hashes() {}

    public static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }

    /** SHA-256 of the UTF-8 bytes of {@code text}. */
    public static byte[] sha256(String text) { return sha256(text.getBytes(StandardCharsets.UTF_8)); }

    /** SHA-256 of the UTF-8 bytes of {@code text} as lower-case hex. */
    public static String sha256Hex(String text) { return HexFormat.of().formatHex(sha256(text)); }
}
