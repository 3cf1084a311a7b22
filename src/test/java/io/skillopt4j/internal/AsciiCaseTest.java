package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Differential: indexOf finds what a quoted CASE_INSENSITIVE regex finds, for tags that start with a letter or not. */
class AsciiCaseTest {
    @Test
    void findsWhatTheRegexFinds() {
        String[] parts = {"a", "A", "n", "N", "ſ", "\u212a", "k", "K", "<", "/", "-", "_", " ", "é"};
        Random r = new Random(17);
        for (String tag : new String[] {"<answer>", "an", "api_key", "k-", "<"}) {
            Pattern p = Pattern.compile(Pattern.quote(tag), Pattern.CASE_INSENSITIVE);
            for (int i = 0; i < 20_000; i++) {
                StringBuilder sb = new StringBuilder();
                for (int k = 0, n = r.nextInt(12); k < n; k++) sb.append(r.nextInt(4) == 0 ? tag.toUpperCase() : parts[r.nextInt(parts.length)]);
                String t = sb.toString();
                int from = t.isEmpty() ? 0 : r.nextInt(t.length());
                Matcher m = p.matcher(t);
                assertEquals(m.find(from) ? m.start() : -1, AsciiCase.indexOf(t, tag, from), tag + " in " + t + " from " + from);
            }
        }
        assertEquals(false, AsciiCase.matchesAt("ab", -1, "a"));
        assertEquals(false, AsciiCase.matchesAt("ab", 1, "bc"));
    }
}
