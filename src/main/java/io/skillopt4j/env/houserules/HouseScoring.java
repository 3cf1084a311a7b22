package io.skillopt4j.env.houserules;

import io.skillopt4j.env.Answers;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/** Stateless. House-rules scores: hard = exact match, soft = token F1 (a right fact in the wrong format). */
public final class HouseScoring {
    private HouseScoring() {}

    private static final Pattern ANSWER = Pattern.compile("<answer>(.*?)</answer>", Pattern.DOTALL);
    private static final Pattern TOKEN = Pattern.compile("[a-z0-9]+");

    /** Returns the text inside the last {@code <answer>…</answer>} of a reply, else the reply's last non-blank line. */
    public static String extractAnswer(String reply) {
        if (reply == null) return "";
        Optional<MatchResult> last = ANSWER.matcher(reply).results().reduce((a, b) -> b);
        if (last.isPresent()) return last.get().group(1).trim();
        String[] lines = reply.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].trim();
    }

    /** Returns 1 when the prediction equals the gold answer exactly (ignoring surrounding whitespace), else 0. */
    public static double hard(String predicted, String gold) {
        return predicted != null && predicted.trim().equals(gold.trim()) ? 1.0 : 0.0;
    }

    /** Returns the token F1 of prediction against gold (1 for an exact match, 0 for no shared token). */
    public static double soft(String predicted, String gold) {
        if (hard(predicted, gold) == 1.0) return 1.0;
        List<String> p = tokens(predicted), g = tokens(gold);
        return p.isEmpty() || g.isEmpty() ? 0.0 : Answers.tokenF1(p, g);
    }

    private static List<String> tokens(String s) {
        return TOKEN.matcher(s == null ? "" : s.toLowerCase(Locale.ROOT)).results().map(MatchResult::group).toList();
    }
}
