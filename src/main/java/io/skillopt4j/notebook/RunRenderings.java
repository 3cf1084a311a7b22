package io.skillopt4j.notebook;

import io.skillopt4j.internal.HtmlText;
import io.skillopt4j.RunFolderException;
import io.skillopt4j.frames.Compare;
import io.skillopt4j.frames.Plot;
import io.skillopt4j.frames.Plots;
import io.skillopt4j.run.TrainingProgress;

import java.util.List;

/**
 * Stateless. How the toolkit's own value types (runs, comparisons, plots, trainings) look in a notebook; every
 * rendering keeps the value's {@code toString()} as its {@code text/plain}.
 */
final class RunRenderings {
    private static final int PLOT_WIDTH = 640;

    private RunRenderings() {}

    static Rendering run(Run run, int maxRows) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-run\">");
        sb.append("<div><b>").append(HtmlText.escape(run.name())).append("</b> · ").append(HtmlText.escape(run.status())).append("</div>\n")
                .append("<div><small>").append(HtmlText.escape(run.dir().toAbsolutePath().toString())).append("</small></div>\n");
        warnings(sb, run.warnings());
        sb.append(Renderings.tableHtml(run.overview(), maxRows));
        img(sb, run.learningCurve());
        return Rendering.of(Rendering.HTML, sb.append("</div>").toString(), run.toString());
    }

    static Rendering compare(Compare c, int maxRows) {
        StringBuilder sb = new StringBuilder("<div class=\"skillopt-compare\">");
        sb.append(Renderings.tableHtml(c.summary(), maxRows));
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
            sb.append(Renderings.tableHtml(t.run().overview(), maxRows));
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
