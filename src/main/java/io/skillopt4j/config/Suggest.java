package io.skillopt4j.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.ToIntFunction;

/** Immutable (static helpers). "Did you mean" suggestions by Levenshtein distance over known keys. */
public final class Suggest {
    private Suggest() {}

    /** Returns the closest candidate within a distance budget scaled to the word, or null. */
    public static String closest(String word, Collection<String> candidates) {
        String w = word.toLowerCase(Locale.ROOT);
        ToIntFunction<String> d = c -> io.skillopt4j.internal.Levenshtein.distance(w, c.toLowerCase(Locale.ROOT));
        String best = candidates.stream().min(Comparator.comparingInt(d)).orElse(null);
        if (best != null && d.applyAsInt(best) <= Math.max(2, w.length() / 3)) return best;
        if (w.length() < 3) return null;
        // a cut-off name ("azur" for azure_openai): the shortest candidate it begins
        return candidates.stream().filter(c -> c.toLowerCase(Locale.ROOT).startsWith(w))
                .min(Comparator.comparingInt(String::length)).orElse(null);
    }

    /** Returns {@code "; did you mean X?"} for a dotted or flat key, or "" when nothing is close. */
    static String didYouMean(String key) {
        return didYouMean(key, Flags.ALL.stream().filter(f -> !f.retired())
                .map(f -> key.contains(".") ? f.path() : f.key()).toList());
    }

    /** Returns {@code "; did you mean X?"} with the {@link #closest} candidate, or "" when none is close. */
    public static String didYouMean(String word, Collection<String> candidates) {
        String c = closest(word, candidates);
        return c == null ? "" : "; did you mean " + c + "?";
    }
}
