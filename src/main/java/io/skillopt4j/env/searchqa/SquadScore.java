package io.skillopt4j.env.searchqa;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Stateless. The SQuAD answer normalisation, exact match, token F1 and substring match SearchQA is graded with.
 * Normalisation runs per rollout item: it is written as loops over the text instead of three regexes (a cold JVM
 * interprets java.util.regex's matcher nodes: ~9 % of a rollout item's time on the shared workload), with the
 * regexes' Unicode semantics — the same strings as {@code [punct]}, {@code \b(a|an|the)\b} and {@code \s+} under
 * {@code UNICODE_CHARACTER_CLASS} (tested against them on random text in {@code SquadScoreTest}).
 */
public final class SquadScore {
    private static final String PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    private SquadScore() {}

    /** lower-case → drop ASCII punctuation → articles a/an/the to spaces → collapse whitespace. */
    public static String normalize(String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        StringBuilder t = new StringBuilder(lower.length());
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (c > '~' || PUNCT.indexOf(c) < 0) t.append(c);
        }
        return String.join(" ", tokens(withoutArticles(t)));
    }

    // \b(a|an|the)\b: a whole run of word characters that is an article becomes one space
    private static String withoutArticles(CharSequence t) {
        StringBuilder out = null;
        int i = 0, n = t.length(), copied = 0;
        while (i < n) {
            int cp = Character.codePointAt(t, i);
            if (!isWord(cp)) { i += Character.charCount(cp); continue; }
            int start = i;
            while (i < n && isWord(cp = Character.codePointAt(t, i))) i += Character.charCount(cp);
            int len = i - start;
            if ((len == 1 && t.charAt(start) == 'a') || (len == 2 && t.charAt(start) == 'a' && t.charAt(start + 1) == 'n')
                    || (len == 3 && t.charAt(start) == 't' && t.charAt(start + 1) == 'h' && t.charAt(start + 2) == 'e')) {
                if (out == null) out = new StringBuilder(n);
                out.append(t, copied, start).append(' ');
                copied = i;
            }
        }
        if (out == null) return t.toString();
        return out.append(t, copied, n).toString();
    }

    // \w under UNICODE_CHARACTER_CLASS, which is what its \b looks at on either side
    private static boolean isWord(int cp) {
        if (cp < 0x80) return cp >= 'a' && cp <= 'z' || cp >= 'A' && cp <= 'Z' || cp >= '0' && cp <= '9' || cp == '_';
        int type = Character.getType(cp);
        return Character.isAlphabetic(cp) || type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                || type == Character.COMBINING_SPACING_MARK || type == Character.DECIMAL_DIGIT_NUMBER
                || type == Character.CONNECTOR_PUNCTUATION || cp == 0x200C || cp == 0x200D;
    }

    // \s under UNICODE_CHARACTER_CLASS (Unicode White_Space)
    private static boolean isSpace(char c) {
        if (c < 0x80) return c == ' ' || c >= 0x9 && c <= 0xd;
        int type = Character.getType(c);
        return c == 0x85 || type == Character.SPACE_SEPARATOR || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    // strip(), then String.split("\\s+"): an empty leading field when the stripped text starts with a separator that
    // strip() keeps (a no-break space), no trailing empty fields
    private static List<String> tokens(String normalized) {
        String t = normalized.strip();
        if (t.isEmpty()) return List.of();
        List<String> out = new ArrayList<>();
        int i = 0, n = t.length();
        while (i < n) {
            int start = i;
            while (i < n && !isSpace(t.charAt(i))) i++;
            out.add(t.substring(start, i));
            while (i < n && isSpace(t.charAt(i))) i++;
        }
        int end = out.size();
        while (end > 0 && out.get(end - 1).isEmpty()) end--;
        return end == out.size() ? out : out.subList(0, end);
    }

    /** 1 when the normalised prediction equals any normalised gold. */
    public static int exactMatch(String prediction, List<String> golds) {
        String p = normalize(prediction);
        for (String g : golds) if (p.equals(normalize(g))) return 1;
        return 0;
    }

    /** Max over golds of the token-multiset F1 (both empty → 1, one empty → 0). */
    public static double f1(String prediction, List<String> golds) {
        double best = 0;
        List<String> p = tokens(normalize(prediction));
        for (String g : golds) best = Math.max(best, f1Tokens(p, tokens(normalize(g))));
        return best;
    }

    static double f1Tokens(List<String> pred, List<String> gold) {
        if (pred.isEmpty() || gold.isEmpty()) return pred.isEmpty() && gold.isEmpty() ? 1.0 : 0.0;
        Map<String, Integer> counts = new HashMap<>();
        for (String t : gold) counts.merge(t, 1, Integer::sum);
        int same = 0;
        for (String t : pred) {
            Integer c = counts.get(t);
            if (c != null && c > 0) {
                same++;
                counts.put(t, c - 1);
            }
        }
        if (same == 0) return 0;
        double precision = (double) same / pred.size();
        double recall = (double) same / gold.size();
        return 2 * precision * recall / (precision + recall);
    }

    /** Immutable. The three grades of one prediction: {@link #exactMatch}, {@link #f1} and {@link #subExactMatch}. */
    public record Grade(int em, double f1, int subEm) {}

    /**
     * Returns what {@link #exactMatch}, {@link #f1} and {@link #subExactMatch} return, normalising the prediction and
     * each gold once instead of once per measure (run per rollout item; the regexes are most of its cost).
     */
    public static Grade grade(String prediction, List<String> golds) {
        String p = normalize(prediction);
        List<String> pt = tokens(p);
        int em = 0, sub = 0;
        double f1 = 0;
        for (String g : golds) {
            String n = normalize(g);
            if (p.equals(n)) em = 1;
            f1 = Math.max(f1, f1Tokens(pt, tokens(n)));
            if (!p.isEmpty() && !n.isEmpty() && (p.contains(n) || n.contains(p))) sub = 1;
        }
        return new Grade(em, f1, sub);
    }

    /** 1 when either non-empty normalised string contains the other, for any gold (recorded, not used for hard). */
    public static int subExactMatch(String prediction, List<String> golds) {
        String p = normalize(prediction);
        if (p.isEmpty()) return 0;
        for (String g : golds) {
            String n = normalize(g);
            if (!n.isEmpty() && (p.contains(n) || n.contains(p))) return 1;
        }
        return 0;
    }
}
