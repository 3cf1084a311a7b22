package io.skillopt4j.frames;

import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.HtmlText;
import io.skillopt4j.run.RunSnapshot;
import tech.tablesaw.aggregate.AggregateFunctions;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.nio.file.Path;
import java.util.List;

/**
 * Immutable. One self-contained HTML report over one or more runs: tables, plots as data-URL PNGs and the diff
 * from the initial to the best skill. It loads no external resource, so it works offline and as an attachment.
 */
public final class Report {
    static final int MAX_TABLE_ROWS = 200;
    private final List<RunFrames> runs;

    private Report(List<RunFrames> runs) {
        if (runs.isEmpty()) throw new IllegalArgumentException("a report needs at least one run");
        this.runs = List.copyOf(runs);
    }

    public static Report of(List<RunFrames> runs) { return new Report(runs); }

    @Override public String toString() {
        return "report over " + runs.size() + (runs.size() == 1 ? " run: " : " runs: ")
                + String.join(", ", runs.stream().map(r -> r.snapshot().name()).toList()) + " (write(path) or html())";
    }

    /** Writes atomically. */
    public Path write(Path file) {
        AtomicFiles.writeString(file, html());
        return file;
    }

    public String html() {
        StringBuilder h = new StringBuilder(1 << 16);
        String title = runs.size() == 1 ? "SkillOpt run " + runs.get(0).snapshot().name() : "SkillOpt runs: " + runs.size() + " compared";
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>").append(HtmlText.escape(title)).append("</title>\n")
                .append("<style>").append(CSS).append("</style>\n</head>\n<body>\n<h1>").append(HtmlText.escape(title)).append("</h1>\n");
        if (runs.size() > 1) {
            Compare c = Compare.of(runs);
            h.append("<section id=\"compare\"><h2>Comparison</h2>\n");
            table(h, c.summary(), "compare-summary");
            Plot p = Plots.compareLearningCurves(c);
            h.append("<figure><img class=\"plot\" alt=\"").append(p.name()).append("\" src=\"").append(p.dataUrl())
                    .append("\"><figcaption>learning curves</figcaption></figure>\n");
            h.append("</section>\n");
        }
        int i = 0;
        for (RunFrames r : runs) runSection(h, r, ++i);
        h.append("<script>").append(SCRIPT).append("</script>\n</body></html>\n");
        return h.toString();
    }

    private void runSection(StringBuilder h, RunFrames r, int n) {
        RunSnapshot s = r.snapshot();
        h.append("<section class=\"run\" id=\"run-").append(n).append("\"><h2>").append(HtmlText.escape(s.name())).append(" <small>")
                .append(HtmlText.escape(s.status())).append(HtmlText.escape(r.headline())).append("</small></h2>\n");
        h.append("<p class=\"path\">").append(HtmlText.escape(s.dir().toAbsolutePath().toString())).append("</p>\n");
        if (!s.warnings().isEmpty()) {
            h.append("<div class=\"warnings\"><h3>Warnings</h3><ul>");
            for (String w : s.warnings()) h.append("<li>").append(HtmlText.escape(w)).append("</li>");
            h.append("</ul></div>\n");
        }
        section(h, "Summary", r.summary(), "summary");
        h.append("<h3>Plots</h3>\n<div class=\"plots\">\n");
        for (Plot p : Plots.of(r).all()) {
            h.append("<figure><img class=\"plot\" alt=\"").append(HtmlText.escape(p.name())).append("\" width=\"").append(p.image().getWidth())
                    .append("\" height=\"").append(p.image().getHeight()).append("\" src=\"").append(p.dataUrl())
                    .append("\"><figcaption>").append(HtmlText.escape(p.name().replace('_', ' '))).append("</figcaption></figure>\n");
        }
        h.append("</div>\n<h3>Steps</h3>\n");
        table(h, r.steps().selectColumns("epoch", "step", "action", "edit_budget", "train_hard", "selection_hard",
                "selection_hard_low", "selection_hard_high", "gate_gain", "gate_gain_low", "gate_gain_high", "gate_p_value", "candidate_gate_score", "current_score", "best_score", "n_edits_merged", "n_edits_selected", "n_edits_applied",
                "n_edits_unmatched", "tokens", "seconds"), "steps");
        section(h, "Epochs", r.epochs(), "epochs");
        section(h, "Edits", r.edits().selectColumns("step", "index", "op", "target", "content", "source_type", "rank", "status"), "edits");
        if (r.tests().rowCount() > 0) section(h, "Test evaluations", r.tests(), "tests");
        if (r.engineWorkers().rowCount() > 0) section(h, "Engine workers", r.engineWorkers(), "engine");
        Frame faults = r.faults();
        if (faults.rowCount() > 1) {
            h.append("<h3>Faults by stage</h3>\n<p class=\"muted\">retries, give-ups, fast fails, fallbacks and errored items or calls "
                    + "(their backend failed after its retries; never scored, attempted again on resume)</p>\n");
            table(h, faults, "faults");
        }
        section(h, "Tokens by stage", tokensByStage(r.tokens()), "tokens");
        Frame cost = r.cost();
        if (cost.rowCount() > 0) {
            h.append("<h3>Cost</h3>\n<p>").append(HtmlText.escape(cost.footer())).append("</p>\n");
            table(h, cost, "cost");
        }
        h.append("<h3>Best skill vs initial skill</h3>\n");
        diff(h, s);
        h.append("</section>\n");
    }

    private static final String[] COUNTS = {"calls", "prompt_tokens", "completion_tokens", "total_tokens"};

    private static Table tokensByStage(Frame t) {
        RowBuilder b = new RowBuilder().strings("stage", "role").longs(COUNTS);
        for (Row r : t.summarize(List.of(COUNTS), AggregateFunctions.sum).by("stage", "role").sortAscendingOn("stage", "role"))
            b.row(r.getString("stage"), r.getString("role"), r.getDouble("Sum [calls]"), r.getDouble("Sum [prompt_tokens]"),
                    r.getDouble("Sum [completion_tokens]"), r.getDouble("Sum [total_tokens]"));
        return b.build("tokens_by_stage", null);
    }

    private static void diff(StringBuilder h, RunSnapshot s) {
        if (s.skills().isEmpty() || s.bestSkill().isEmpty()) {
            h.append("<p class=\"muted\">No initial or best skill in this run folder yet.</p>\n");
            return;
        }
        Markdown initial = Markdown.of("skills/skill_v" + String.format("%04d", s.skills().firstKey()) + ".md", s.skills().get(s.skills().firstKey()));
        Markdown best = Markdown.of("best_skill.md", s.bestSkill());
        if (SkillBundle.isPacked(initial.text()) || SkillBundle.isPacked(best.text())) {
            // a multi-file bundle: one diff per file, so a new reference reads as a file, not as a block of the text
            for (Diff d : BundleDiff.of(initial, best).files()) {
                h.append("<h4>").append(HtmlText.escape(d.to().substring(d.to().indexOf('/') + 1))).append("</h4>\n");
                diffBody(h, d);
            }
            return;
        }
        diffBody(h, Diff.of(initial, best));
    }

    private static void diffBody(StringBuilder h, Diff d) {
        h.append("<p>+").append(d.added()).append(" / −").append(d.removed()).append(" lines</p>\n<pre class=\"diff\">");
        for (String line : d.unified()) {
            String cls = line.startsWith("+++") || line.startsWith("---") ? "hdr" : line.startsWith("@@") ? "hunk"
                    : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "ctx";
            h.append("<span class=\"").append(cls).append("\">").append(HtmlText.escape(line)).append("</span>\n");
        }
        if (d.isEmpty()) h.append("<span class=\"ctx\">(identical)</span>\n");
        h.append("</pre>\n");
    }

    private static void section(StringBuilder h, String title, Table t, String cls) {
        h.append("<h3>").append(title).append("</h3>\n");
        table(h, t, cls);
    }

    private static void table(StringBuilder h, Table t, String cls) {
        h.append("<table class=\"").append(cls).append("\"><thead><tr>");
        for (String c : t.columnNames()) h.append("<th>").append(HtmlText.escape(c)).append("</th>");
        h.append("</tr></thead><tbody>\n");
        int rows = Math.min(t.rowCount(), MAX_TABLE_ROWS);
        List<Integer> shown = java.util.stream.IntStream.range(0, rows).boxed().toList();
        int[] decimals = t.columns().stream().mapToInt(c -> ColumnDecimals.forColumn(c, shown)).toArray();
        for (int r = 0; r < rows; r++) {
            h.append("<tr>");
            for (int c = 0; c < t.columnCount(); c++) {
                String v = ColumnDecimals.cell(t.column(c), r, decimals[c]);
                h.append("<td title=\"").append(HtmlText.escape(v)).append("\">").append(HtmlText.escape(TextTable.cell(v, 80))).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table>\n");
        if (t.rowCount() > rows) h.append("<p class=\"muted\">").append(t.rowCount() - rows).append(" more rows not shown</p>\n");
    }

    private static final String CSS = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
            + "table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:13px}th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}"
            + "th{background:#f0f0f0}tr:nth-child(even){background:#fafafa}.plots{display:flex;flex-wrap:wrap;gap:1em}"
            + "figure{margin:0}img.plot{max-width:100%;height:auto;border:1px solid #ddd}.warnings{background:#fff6e0;padding:.5em 1em}"
            + "pre.diff{background:#f8f8f8;padding:1em;overflow:auto}.add{color:#070;background:#e6ffe6}.del{color:#a00;background:#ffe6e6}"
            + ".hunk{color:#06c}.hdr{font-weight:bold}.muted,.path{color:#777}small{font-weight:normal;color:#555}";

    /** Marks the page loaded and counts decoded images; a JS error or broken image adds a visible #js-error element. */
    private static final String SCRIPT = "(function(){function fail(m){var d=document.getElementById('js-error')||document.createElement('div');"
            + "d.id='js-error';d.textContent='report error: '+m;document.body.insertBefore(d,document.body.firstChild);}"
            + "window.onerror=function(m){fail(m);};window.addEventListener('load',function(){var imgs=document.images,ok=0;"
            + "for(var i=0;i<imgs.length;i++){if(imgs[i].complete&&imgs[i].naturalWidth>0)ok++;else fail('image '+imgs[i].alt+' did not decode');}"
            + "document.body.setAttribute('data-images-ok',String(ok));document.body.setAttribute('data-ready','1');});})();";
}
