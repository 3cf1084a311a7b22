package io.skillopt4j.env.searchqa;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Stateless. The SQuAD answer normalisation, exact match, token F1 and substring match SearchQA is graded with. */
public final class SquadScore {
    private static final Pattern PUNCT = Pattern.compile("[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~]");
    private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern WS = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    private SquadScore() {}

    /** lower-case → drop ASCII punctuation → articles a/an/the to spaces → collapse whitespace. */
    public static String normalize(String s) {
        String t = s.toLowerCase(Locale.ROOT);
        t = PUNCT.matcher(t).replaceAll("");
        t = ARTICLES.matcher(t).replaceAll(" ");
        return String.join(" ", tokens(t));
    }

    private static List<String> tokens(String normalized) {
        String t = normalized.strip();
        return t.isEmpty() ? List.of() : Arrays.asList(WS.split(t));
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
