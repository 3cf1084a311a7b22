package io.skillopt4j.env.docvqa;

import java.util.List;
import java.util.Locale;

/** Stateless. Average Normalized Levenshtein Similarity (τ = 0.5), DocVQA's metric. */
public final class Anls {
    public static final double THRESHOLD = 0.5;

    private Anls() {}

    /** trim, lower-case, collapse whitespace. */
    public static String normalize(String s) {
        return String.join(" ", s.trim().toLowerCase(Locale.ROOT).split("\\s+")).trim();
    }

    /** Edit distance over UTF-16 code units. */
    public static int levenshtein(String a, String b) { return io.skillopt4j.internal.Levenshtein.distance(a, b); }

    /** One gold: both empty → 1, one empty → 0, else 1 − d when d = dist/max(len) < 0.5, else 0. */
    public static double score(String prediction, String gold) {
        String p = normalize(prediction);
        String g = normalize(gold);
        if (p.isEmpty() && g.isEmpty()) return 1;
        if (p.isEmpty() || g.isEmpty()) return 0;
        double d = (double) levenshtein(p, g) / Math.max(p.length(), g.length());
        return d >= THRESHOLD ? 0 : 1 - d;
    }

    public static double score(String prediction, List<String> golds) {
        return golds.stream().mapToDouble(g -> score(prediction, g)).max().orElse(0);
    }
}
