package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class HashesTest {
    @Test
    void hexDigestsAreSha256AndTheRecentOnesAreReusedOnlyForEqualText() {
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Hashes.sha256Hex("abc"));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Hashes.sha256Hex(""));
        assertEquals(Hashes.sha256Hex("abc"), Hashes.sha256Hex(new String("abc")), "an equal text, another object");
        assertEquals("Aa".hashCode(), "BB".hashCode());
        assertNotEquals(Hashes.sha256Hex("Aa"), Hashes.sha256Hex("BB"), "equal String hash codes, different texts");
        for (int i = 0; i < 20; i++) Hashes.sha256Hex("filler " + i); // pushes the early ones out
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Hashes.sha256Hex("abc"));
        String big = "x".repeat(70_000);
        assertEquals(Hashes.sha256Hex(big), Hashes.sha256Hex(big));
    }
}
