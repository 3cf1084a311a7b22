package io.skillopt4j.env.searchqa;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Differential: the loop-based normalisation gives what the SQuAD regexes give, on random Unicode text. */
class SquadScoreTest {
    private static final Pattern PUNCT = Pattern.compile("[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~]");
    private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern WS = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    private static String byRegex(String s) {
        String t = s.toLowerCase(Locale.ROOT);
        t = PUNCT.matcher(t).replaceAll("");
        t = ARTICLES.matcher(t).replaceAll(" ");
        String stripped = t.strip();
        List<String> tokens = stripped.isEmpty() ? List.of() : Arrays.asList(WS.split(stripped));
        return String.join(" ", tokens);
    }

    @Test
    void normalisesAsTheRegexesDo() {
        // letters, articles, punctuation, Unicode spaces (no-break, ideographic, line separator, NEL), marks, digits,
        // joiners, connector punctuation, a surrogate pair and lone surrogates
        String[] parts = {"a", "an", "the", "The", "A", "AN", "x", "é", "ß", "İ", "Ω", "漢", "٣", "_", "‿", "\u0301", "\u20DD",
            "\u0903", "\u200C", "\u200D", "😀", "\ud83d", "\ude00", " ", "  ", "\t", "\n", "\u000B", "\u00A0", "\u3000",
            "\u2028", "\u0085", "\u2007", "-", ".", ",", "'", "!", "~", "(", "0", "9", "theatre", "ant", "at"};
        Random r = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(9);
            for (int k = 0; k < n; k++) sb.append(parts[r.nextInt(parts.length)]);
            String s = sb.toString();
            assertEquals(byRegex(s), SquadScore.normalize(s), () -> "for " + s.codePoints().mapToObj(Integer::toHexString).toList());
        }
        for (int cp = 0; cp < 0x3100; cp++) {
            String s = "x" + Character.toString(cp) + "a" + Character.toString(cp) + "the" + Character.toString(cp);
            assertEquals(byRegex(s), SquadScore.normalize(s), "around U+" + Integer.toHexString(cp));
        }
    }

    @Test
    void gradesWithTheSameTokens() {
        assertEquals(new SquadScore.Grade(1, 1.0, 1), SquadScore.grade("The Nile.", List.of("nile")));
        assertEquals(new SquadScore.Grade(0, 2 * 0.5 * 1.0 / 1.5, 1), SquadScore.grade("river nile", List.of("the Nile")));
        assertEquals(new SquadScore.Grade(0, 0.0, 0), SquadScore.grade("", List.of("nile")));
    }
}
