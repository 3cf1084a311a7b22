package io.skillopt4j.notebook;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Patch;

import java.util.List;
import java.util.Objects;

/**
 * Immutable. A line diff between two texts (two skill versions, say): notebooks show it as coloured
 * HTML, plain JShell as a unified diff. {@code Diff.of(skillV1, skillV2)}.
 */
public record Diff(String beforeName, String afterName, String before, String after) {
    private static final int CONTEXT = 2;

    public Diff {
        Objects.requireNonNull(beforeName, "beforeName");
        Objects.requireNonNull(afterName, "afterName");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
    }

    /** The diff from {@code before} to {@code after}. */
    public static Diff of(String before, String after) {
        return new Diff("before", "after", before, after);
    }

    /** The diff from {@code before} to {@code after}, labelled (for example with file names). */
    public static Diff of(String beforeName, String before, String afterName, String after) {
        return new Diff(beforeName, afterName, before, after);
    }

    private Patch<String> patch() {
        return DiffUtils.diff(before.lines().toList(), after.lines().toList());
    }

    /** Lines added, over all changes. */
    public int added() {
        return patch().getDeltas().stream().mapToInt(d -> d.getTarget().size()).sum();
    }

    /** Lines removed, over all changes. */
    public int removed() {
        return patch().getDeltas().stream().mapToInt(d -> d.getSource().size()).sum();
    }

    /** The unified diff ({@code ---}/{@code +++}/{@code @@} form), empty when the texts are equal. */
    public String unified() {
        List<String> lines = UnifiedDiffUtils.generateUnifiedDiff(beforeName, afterName,
                before.lines().toList(), patch(), CONTEXT);
        return String.join("\n", lines);
    }

    /** Coloured HTML: removed lines red, added lines green, {@code CONTEXT} lines around each change. */
    public String html() {
        List<String> src = before.lines().toList();
        StringBuilder sb = new StringBuilder();
        sb.append("<div class=\"skillopt-diff\"><div style=\"font-family:monospace;font-weight:bold\">")
          .append(Renderings.escape(beforeName)).append(" → ").append(Renderings.escape(afterName))
          .append(" &nbsp; <span style=\"color:#1a7f37\">+").append(added()).append("</span> <span style=\"color:#cf222e\">−")
          .append(removed()).append("</span></div>\n<pre style=\"margin:0;line-height:1.35\">");
        List<AbstractDelta<String>> deltas = patch().getDeltas();
        if (deltas.isEmpty()) sb.append("(no changes)");
        int shownTo = 0;
        for (AbstractDelta<String> d : deltas) {
            int start = d.getSource().getPosition();
            int from = Math.max(shownTo, start - CONTEXT);
            if (from > shownTo) sb.append("<span style=\"color:#888\">⋯</span>\n");
            for (int i = from; i < start; i++) line(sb, " ", src.get(i), null);
            for (String l : d.getSource().getLines()) line(sb, "−", l, "#ffebe9");
            for (String l : d.getTarget().getLines()) line(sb, "+", l, "#e6ffec");
            int end = start + d.getSource().size();
            int ctxEnd = Math.min(src.size(), end + CONTEXT);
            for (int i = end; i < ctxEnd; i++) line(sb, " ", src.get(i), null);
            shownTo = ctxEnd;
        }
        if (!deltas.isEmpty() && shownTo < src.size()) sb.append("<span style=\"color:#888\">⋯</span>\n");
        return sb.append("</pre></div>").toString();
    }

    private static void line(StringBuilder sb, String mark, String text, String bg) {
        if (bg != null) sb.append("<span style=\"display:block;background:").append(bg).append("\">");
        sb.append(mark).append(' ').append(Renderings.escape(text));
        sb.append(bg != null ? "</span>" : "\n");
    }

    @Override public String toString() {
        String u = unified();
        return u.isEmpty() ? "(no changes between " + beforeName + " and " + afterName + ")" : u;
    }
}
