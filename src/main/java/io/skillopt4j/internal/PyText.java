package io.skillopt4j.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Stateless. Python's {@code str} rules where Java's differ ({@code isspace()}, {@code re}'s word character,
 * {@code lower()}), for upstream's scorers and answer parsers.
 */
public final class PyText {
    /** The characters of {@code str.isspace()}, for a regex character class. */
    public static final String SPACE = "\\t\\n\\x0B\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
    /** Python's {@code \w} on {@code str}: {@code str.isalnum()} or {@code _}, as a regex character class. */
    public static final String WORD = "[\\p{L}\\p{N}_]";

    private static final Pattern SPACES = Pattern.compile("[" + SPACE + "]+");
    private static final Pattern ENDS = Pattern.compile("\\A[" + SPACE + "]+|[" + SPACE + "]+\\z");

    private PyText() {}

    /** {@code s.split()}: the runs between whitespace, no empty ones. */
    public static List<String> split(String s) {
        return Arrays.stream(SPACES.split(s)).filter(part -> !part.isEmpty()).toList();
    }

    /** {@code s.strip()}. */
    public static String strip(String s) { return ENDS.matcher(s).replaceAll(""); }

    /** {@code s.lower()}: Java's mapping per character, and Python's final-sigma rule (Java's sees the whole word). */
    public static String lower(String s) {
        if (s.indexOf('\u03a3') < 0) return s.toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (cp == 0x3A3) b.append(finalSigma(s, i) ? '\u03c2' : '\u03c3');
            else b.append(Character.toString(cp).toLowerCase(Locale.ROOT));
            i += Character.charCount(cp);
        }
        return b.toString();
    }

    // CPython's handle_capital_sigma: \p{cased}\p{case-ignorable}* before, and no \p{case-ignorable}*\p{cased} after
    private static boolean finalSigma(String s, int at) {
        int j = at, c = 0;
        while (j > 0) {
            c = s.codePointBefore(j);
            j -= Character.charCount(c);
            if (!caseIgnorable(c)) break;
            c = 0;
        }
        if (c == 0 || !cased(c)) return false;
        for (j = at + 1; j < s.length(); j += Character.charCount(c)) {
            c = s.codePointAt(j);
            if (!caseIgnorable(c)) return !cased(c);
        }
        return true;
    }

    private static boolean cased(int c) {
        return Character.isLowerCase(c) || Character.isUpperCase(c) || Character.isTitleCase(c);
    }

    // Unicode's Case_Ignorable: Mn, Me, Cf, Lm, Sk, and Word_Break MidLetter, MidNumLet or Single_Quote
    private static boolean caseIgnorable(int c) {
        int t = Character.getType(c);
        return t == Character.NON_SPACING_MARK || t == Character.ENCLOSING_MARK || t == Character.FORMAT
                || t == Character.MODIFIER_LETTER || t == Character.MODIFIER_SYMBOL || MID_WORD.indexOf(c) >= 0;
    }

    private static final String MID_WORD = "'.:\u00b7\u0387\u055f\u05f4\u2018\u2019\u2024\u2027\ufe13\ufe52\ufe55\uff07\uff0e\uff1a";
}
