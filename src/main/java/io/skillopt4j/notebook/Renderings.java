package io.skillopt4j.notebook;

import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.TextTable;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import javax.imageio.ImageIO;
import java.awt.image.RenderedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Stateless. The built-in renderings behind {@link Display}: tables, images, charts, Markdown, HTML, diffs. */
final class Renderings {
    static final int MAX_CELL_CHARS = 120;

    private Renderings() {}

    static Rendering table(Table t, int maxRows) {
        return Rendering.of(Rendering.HTML, tableHtml(t, maxRows), tableText(t, maxRows));
    }

    /** Rows first and last (as Tablesaw prints), cells capped at {@link #MAX_CELL_CHARS}, cuts marked with …. */
    static String tableHtml(Table t, int maxRows) {
        int rows = t.rowCount();
        int head = rows <= maxRows ? rows : (maxRows + 1) / 2;
        int tailFrom = rows <= maxRows ? rows : rows - maxRows / 2;
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-table\"><table class=\"dataframe\" border=\"1\">\n");
        if (t.name() != null && !t.name().isBlank()) sb.append("<caption>").append(escape(t.name())).append("</caption>\n");
        sb.append("<thead><tr>");
        for (Column<?> c : t.columns()) sb.append("<th>").append(escape(c.name())).append("</th>");
        sb.append("</tr></thead>\n<tbody>\n");
        for (int r = 0; r < head; r++) row(sb, t, r);
        if (tailFrom > head) {
            sb.append("<tr>");
            for (int i = 0; i < t.columnCount(); i++) sb.append("<td>…</td>");
            sb.append("</tr>\n");
        }
        for (int r = tailFrom; r < rows; r++) row(sb, t, r);
        String footer = t instanceof Frame f ? f.footer() : rows + " rows × " + t.columnCount() + " columns";
        sb.append("</tbody></table>\n<p><small>").append(escape(footer));
        if (rows > maxRows) sb.append(" (showing ").append(maxRows).append("; Display.maxRows(n) to change)");
        return sb.append("</small></p></div>").toString();
    }

    private static void row(StringBuilder sb, Table t, int r) {
        sb.append("<tr>");
        for (Column<?> c : t.columns()) {
            String v = c.isMissing(r) ? "" : c.getString(r);
            sb.append("<td>").append(escape(cap(v))).append("</td>");
        }
        sb.append("</tr>\n");
    }

    /** Starts with a newline so the columns line up after JShell's {@code ==>}. */
    static String tableText(Table t, int maxRows) {
        if (t instanceof Frame f) return f.print(maxRows, TextTable.MAX_WIDTH);
        return "\n" + t.print(maxRows) + "\n" + t.rowCount() + " rows x " + t.columnCount() + " columns";
    }

    static Rendering image(RenderedImage img) {
        String text = "image " + img.getWidth() + "x" + img.getHeight();
        return Rendering.of(Rendering.PNG, pngBase64(img), text);
    }

    static String pngBase64(RenderedImage img) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode image as PNG: " + e.getMessage(), e);
        }
        return Base64.getEncoder().encodeToString(out.toByteArray());
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

    static Rendering diff(Diff d) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Rendering.HTML, d.html());
        m.put(Rendering.TEXT, d.toString());
        return new Rendering(m);
    }

    static String cap(String s) {
        return s.length() <= MAX_CELL_CHARS ? s : s.substring(0, MAX_CELL_CHARS - 1) + "…";
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(ch);
            }
        }
        return sb.toString();
    }
}
