package io.skillopt4j.notebook;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.frames.ColumnDecimals;
import io.skillopt4j.frames.Compare;
import io.skillopt4j.frames.Diff;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.Markdown;
import io.skillopt4j.frames.Plot;
import io.skillopt4j.frames.Plots;
import io.skillopt4j.frames.TextTable;
import io.skillopt4j.internal.HtmlText;
import io.skillopt4j.run.TrainingProgress;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import javax.imageio.ImageIO;
import java.awt.image.RenderedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Stateless. The built-in renderings behind {@link Display}: tables, images, charts, Markdown, HTML, diffs, and the
 * toolkit's own value types, each keeping the value's {@code toString()} as its {@code text/plain}.
 */
final class Renderings {
    static final int MAX_CELL_CHARS = 120;
    private static final int PLOT_WIDTH = 640;

    private Renderings() {}

    /** The text starts with a newline so the columns line up after JShell's {@code ==>}. */
    static Rendering table(Table t, int maxRows) {
        return Rendering.of(Rendering.HTML, tableHtml(t, maxRows), Frame.of(t).print(maxRows, TextTable.MAX_WIDTH));
    }

    /** First and last rows (as Tablesaw prints), cells capped at {@link #MAX_CELL_CHARS}, cuts marked with …. */
    static String tableHtml(Table t, int maxRows) {
        int rows = t.rowCount();
        int head = rows <= maxRows ? rows : (maxRows + 1) / 2;
        int tailFrom = rows <= maxRows ? rows : rows - maxRows / 2;
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-table\"><table class=\"dataframe\" border=\"1\">\n");
        if (t.name() != null && !t.name().isBlank()) sb.append("<caption>").append(HtmlText.escape(t.name())).append("</caption>\n");
        sb.append("<thead><tr>");
        for (Column<?> c : t.columns()) sb.append("<th>").append(HtmlText.escape(c.name())).append("</th>");
        sb.append("</tr></thead>\n<tbody>\n");
        List<Integer> shown = IntStream.concat(IntStream.range(0, head), IntStream.range(tailFrom, rows)).boxed().toList();
        int[] decimals = t.columns().stream().mapToInt(c -> ColumnDecimals.forColumn(c, shown)).toArray();
        for (int r = 0; r < head; r++) row(sb, t, r, decimals);
        if (tailFrom > head) sb.append("<tr>").append("<td>…</td>".repeat(t.columnCount())).append("</tr>\n");
        for (int r = tailFrom; r < rows; r++) row(sb, t, r, decimals);
        String footer = t instanceof Frame f ? f.footer() : rows + " rows × " + t.columnCount() + " columns";
        sb.append("</tbody></table>\n<p><small>").append(HtmlText.escape(footer));
        if (rows > maxRows) sb.append(" (showing ").append(maxRows).append("; Display.maxRows(n) to change)");
        return sb.append("</small></p></div>").toString();
    }

    private static void row(StringBuilder sb, Table t, int r, int[] decimals) {
        sb.append("<tr>");
        for (int c = 0; c < t.columnCount(); c++) {
            String v = ColumnDecimals.cell(t.column(c), r, decimals[c]);
            sb.append("<td>").append(HtmlText.escape(cap(v))).append("</td>");
        }
        sb.append("</tr>\n");
    }

    static Rendering image(RenderedImage img) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode image as PNG: " + e.getMessage(), e);
        }
        String png = Base64.getEncoder().encodeToString(out.toByteArray());
        return Rendering.of(Rendering.PNG, png, "image " + img.getWidth() + "x" + img.getHeight());
    }

    static Rendering chart(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) {
        Rendering img = image(org.knowm.xchart.BitmapEncoder.getBufferedImage(chart));
        String title = chart.getTitle() == null || chart.getTitle().isBlank() ? "chart" : "chart \"" + chart.getTitle() + "\"";
        return Rendering.of(Rendering.PNG, img.get(Rendering.PNG), title + " " + chart.getWidth() + "x" + chart.getHeight());
    }

    static Rendering markdown(Markdown md) {
        return Rendering.of(Rendering.MARKDOWN, md.text(), md.toString());
    }

    static Rendering html(Html h) {
        return Rendering.of(Rendering.HTML, h.html(), h.html());
    }

    /** A unified diff coloured line by line: additions green, removals red, hunk headers grey. */
    static Rendering diff(Diff d) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-diff\"><div style=\"font-family:monospace;font-weight:bold\">")
                .append(HtmlText.escape(d.from())).append(" → ").append(HtmlText.escape(d.to()))
                .append(" &nbsp; <span style=\"color:#1a7f37\">+").append(d.added()).append("</span> <span style=\"color:#cf222e\">−")
                .append(d.removed()).append("</span></div>\n<pre style=\"margin:0;line-height:1.35\">");
        if (d.isEmpty()) sb.append("(no changes)");
        for (String line : d.unified()) {
            if (line.startsWith("+++") || line.startsWith("---")) continue;
            String bg = line.startsWith("+") ? "#e6ffec" : line.startsWith("-") ? "#ffebe9" : null;
            if (line.startsWith("@@")) sb.append("<span style=\"color:#888\">").append(HtmlText.escape(line)).append("</span>\n");
            else if (bg != null) sb.append("<span style=\"display:block;background:").append(bg).append("\">").append(HtmlText.escape(line)).append("</span>");
            else sb.append(HtmlText.escape(line)).append('\n');
        }
        return Rendering.of(Rendering.HTML, sb.append("</pre></div>").toString(), d.isEmpty() ? d.toString() : d.text());
    }

    /** One coloured diff per file of a bundle, in bundle order; unchanged files as one line each. */
    static Rendering bundleDiff(io.skillopt4j.frames.BundleDiff b) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-bundle-diff\">");
        for (Diff d : b.files()) {
            if (d.isEmpty()) sb.append("<div style=\"font-family:monospace;color:#888\">").append(HtmlText.escape(d.to())).append(": no changes</div>");
            else sb.append(diff(d).data().get(Rendering.HTML));
        }
        return Rendering.of(Rendering.HTML, sb.append("</div>").toString(), b.toString());
    }

    static String cap(String s) {
        return s.length() <= MAX_CELL_CHARS ? s : s.substring(0, MAX_CELL_CHARS - 1) + "…";
    }

    static Rendering run(Run run, int maxRows) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-run\">");
        sb.append("<div><b>").append(HtmlText.escape(run.name())).append("</b> · ").append(HtmlText.escape(run.status())).append("</div>\n")
                .append("<div><small>").append(HtmlText.escape(run.dir().toAbsolutePath().toString())).append("</small></div>\n");
        warnings(sb, run.warnings());
        sb.append(tableHtml(run.overview(), maxRows));
        img(sb, run.learningCurve());
        return Rendering.of(Rendering.HTML, sb.append("</div>").toString(), run.toString());
    }

    static Rendering compare(Compare c, int maxRows) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-compare\">");
        sb.append(tableHtml(c.summary(), maxRows));
        img(sb, c.learningCurves());
        return Rendering.of(Rendering.HTML, sb.append("</div>").toString(), c.toString());
    }

    static Rendering plots(Plots p) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-plots\" style=\"display:flex;flex-wrap:wrap;gap:8px\">");
        for (Plot plot : p.all()) img(sb, plot);
        return Rendering.of(Rendering.HTML, sb.append("</div>").toString(), p.toString());
    }

    static Rendering training(Training t, int maxRows) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-training\">").append(progressBar(t.status()));
        try {
            sb.append(tableHtml(t.run().overview(), maxRows));
        } catch (RunFolderException e) {
            sb.append("<p><small>nothing written yet</small></p>");
        }
        return Rendering.of(Rendering.HTML, sb.append("</div>").toString(), t.toString());
    }

    static Rendering progress(TrainingProgress p) {
        return Rendering.of(Rendering.HTML, progressBar(p), p.toString());
    }

    private static String progressBar(TrainingProgress p) {
        int pct = (int) Math.round(100 * p.fraction());
        return "<div class=\"skillopt-progress\" style=\"font-family:monospace\"><progress max=\"100\" value=\"" + pct
                + "\" style=\"width:16em;vertical-align:middle\"></progress> " + HtmlText.escape(p.toString()) + "</div>";
    }

    private static void warnings(StringBuilder sb, List<String> ws) {
        if (ws.isEmpty()) return;
        sb.append("<details><summary>").append(ws.size()).append(ws.size() == 1 ? " warning" : " warnings").append("</summary><ul>");
        for (String w : ws) sb.append("<li>").append(HtmlText.escape(w)).append("</li>");
        sb.append("</ul></details>\n");
    }

    private static void img(StringBuilder sb, Plot p) {
        sb.append("<img alt=\"").append(HtmlText.escape(p.name())).append("\" style=\"max-width:").append(PLOT_WIDTH)
                .append("px;width:100%\" src=\"").append(p.dataUrl()).append("\">\n");
    }
}
