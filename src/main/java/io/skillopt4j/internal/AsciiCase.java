package io.skillopt4j.internal;

/**
 * Stateless. Case-insensitive matching in ASCII only, as java.util.regex's {@code CASE_INSENSITIVE} without
 * {@code UNICODE_CASE} matches: a letter of the pattern matches either of its ASCII cases and nothing else (not the
 * long s or the Kelvin sign). For fixed tags and suffixes that would otherwise need a regex per call.
 */
public final class AsciiCase {
    private AsciiCase() {}

    /** True when {@code lower} (lower-case letters, any other characters) occurs in {@code text} at {@code at}. */
    public static boolean matchesAt(String text, int at, String lower) {
        if (at < 0 || at + lower.length() > text.length()) return false;
        for (int k = 0; k < lower.length(); k++) {
            char c = text.charAt(at + k), p = lower.charAt(k);
            if (c != p && !(p >= 'a' && p <= 'z' && c == p - 32)) return false;
        }
        return true;
    }

    /** The first index at or after {@code from} where {@link #matchesAt} holds, or -1; {@code lower} is not empty. */
    public static int indexOf(String text, String lower, int from) {
        char first = lower.charAt(0);
        boolean caseless = first < 'a' || first > 'z'; // then String.indexOf finds the candidates ('<' of a tag)
        for (int i = caseless ? text.indexOf(first, from) : Math.max(0, from); i >= 0 && i + lower.length() <= text.length();
                i = caseless ? text.indexOf(first, i + 1) : i + 1) {
            if (matchesAt(text, i, lower)) return i;
        }
        return -1;
    }
}
