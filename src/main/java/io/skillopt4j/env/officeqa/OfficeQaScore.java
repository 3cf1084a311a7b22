package io.skillopt4j.env.officeqa;

import io.skillopt4j.env.Answers;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Stateless. OfficeQA's answer normalisation, exact match and token F1 (no numeric tolerance). */
public final class OfficeQaScore {
    private static final Pattern PUNCT = Pattern.compile("[!\"#$&'()*+/:;<=>?@\\[\\\\\\]^_`{|}~]");
    private static final Pattern UNITS = Pattern.compile("\\b(millions?|billions?|dollars?|nominal)\\b");

    private OfficeQaScore() {}

    /** lower, trim, drop commas, drop punctuation except . - %, unit words to spaces, collapse whitespace. */
    public static String normalize(String s) {
        String t = s.toLowerCase(Locale.ROOT).trim().replace(",", "");
        t = PUNCT.matcher(t).replaceAll("");
        t = UNITS.matcher(t).replaceAll(" ");
        return String.join(" ", t.trim().split("\\s+")).trim();
    }

    public static int exactMatch(String prediction, String gold) {
        return normalize(prediction).equals(normalize(gold)) ? 1 : 0;
    }

    /** Token F1 on normalised tokens (multiset overlap); both empty → 1, one empty → 0. */
    public static double f1(String prediction, String gold) {
        String p = normalize(prediction);
        String g = normalize(gold);
        List<String> pt = p.isEmpty() ? List.of() : Arrays.asList(p.split(" "));
        List<String> gt = g.isEmpty() ? List.of() : Arrays.asList(g.split(" "));
        return Answers.tokenF1(pt, gt);
    }
}
