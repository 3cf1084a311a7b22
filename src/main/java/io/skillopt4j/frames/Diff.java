package io.skillopt4j.frames;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;

import java.util.Arrays;
import java.util.List;

/**
 * Immutable. A unified line diff between two texts (3 lines of context) with counts of added and removed lines.
 * Notebooks show it as coloured HTML; {@code toString()} is the diff text.
 */
public record Diff(String from, String to, List<String> unified, int added, int removed) {
    private static final int CONTEXT = 3;

    public Diff {
        unified = List.copyOf(unified);
    }

    public static Diff of(String before, String after) { return of("before", before, "after", after); }

    /** Labelled, for example with file names. */
    public static Diff of(String fromName, String before, String toName, String after) {
        List<String> la = lines(before), lb = lines(after);
        Patch<String> patch = DiffUtils.diff(la, lb);
        return new Diff(fromName, toName, UnifiedDiffUtils.generateUnifiedDiff(fromName, toName, la, patch, CONTEXT),
                patch.getDeltas().stream().mapToInt(d -> d.getTarget().size()).sum(),
                patch.getDeltas().stream().mapToInt(d -> d.getSource().size()).sum());
    }

    public static Diff of(Markdown a, Markdown b) { return of(a.label(), a.text(), b.label(), b.text()); }

    private static List<String> lines(String text) {
        if (text.isEmpty()) return List.of();
        String t = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return Arrays.asList(t.split("\n", -1));
    }

    /** True when the two texts are equal. */
    public boolean isEmpty() { return added == 0 && removed == 0; }

    /** Returns the diff text (one line per entry, newline-terminated), empty when the texts are equal. */
    public String text() { return unified.isEmpty() ? "" : String.join("\n", unified) + "\n"; }

    @Override public String toString() {
        if (isEmpty()) return "(no changes between " + from + " and " + to + ")";
        return "\n" + text() + from + " → " + to + " · +" + added + " −" + removed + " lines";
    }
}
