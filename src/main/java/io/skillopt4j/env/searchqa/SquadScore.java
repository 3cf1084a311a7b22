package io.skillopt4j.env.searchqa;

import io.skillopt4j.env.Answers;
import io.skillopt4j.internal.PyText;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Stateless. The SQuAD grades of SearchQA, with Python's text semantics ({@link PyText}). */
public final class SquadScore {
    /** POSIX {@code \p{Punct}} (no Unicode flag): exactly the 32 characters of Python's {@code string.punctuation}. */
    private static final Pattern PUNCT = Pattern.compile("\\p{Punct}");
    /** A run of Python word characters, by code point: {@code \b(a|an|the)\b} matches exactly the article runs. */
    private static final Pattern WORD_RUN = Pattern.compile(PyText.WORD + "+");

    private SquadScore() {}

    /** lower-case → drop ASCII punctuation → articles a/an/the to spaces → collapse whitespace. */
    public static String normalize(String s) {
        String t = PUNCT.matcher(PyText.lower(s)).replaceAll("");
        Matcher m = WORD_RUN.matcher(t);
        t = m.replaceAll(r -> List.of("a", "an", "the").contains(r.group()) ? " " : Matcher.quoteReplacement(r.group()));
        return String.join(" ", PyText.split(t));
    }

    /** 1 when the normalised prediction equals any normalised gold. */
    public static int exactMatch(String prediction, List<String> golds) {
        return grade(prediction, golds).em();
    }

    /** Max over golds of the token-multiset F1 (both empty → 1, one empty → 0). */
    public static double f1(String prediction, List<String> golds) {
        return grade(prediction, golds).f1();
    }

    /** 1 when either non-empty normalised string contains the other, for any gold (recorded, not used for hard). */
    public static int subExactMatch(String prediction, List<String> golds) {
        return grade(prediction, golds).subEm();
    }

    /** Immutable. The three grades of one prediction. */
    public record Grade(int em, double f1, int subEm) {}

    /** The three grades, normalising each text once. */
    public static Grade grade(String prediction, List<String> golds) {
        String p = normalize(prediction);
        List<String> pt = PyText.split(p);
        int em = 0, sub = 0;
        double f1 = 0;
        for (String g : golds) {
            String n = normalize(g);
            if (p.equals(n)) em = 1;
            f1 = Math.max(f1, Answers.tokenF1(pt, PyText.split(n)));
            if (!p.isEmpty() && !n.isEmpty() && (p.contains(n) || n.contains(p))) sub = 1;
        }
        return new Grade(em, f1, sub);
    }
}
