package io.skillopt4j.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import io.skillopt4j.notebook.Display;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The kernel without sockets: what Jupyter would receive for execute, complete and is_complete. */
class SkillOptKernelTest {
    private static SkillOptKernel kernel;

    @BeforeAll static void start() {
        kernel = SkillOptKernel.start(JShellEngineTest.testClassPath());
    }

    @AfterAll static void stop() {
        kernel.onShutdown(false);
        assertNull(SkillOptKernel.instance());
        assertEquals("none", Display.kernel());
    }

    @Test void startupImportsTheToolkitAndAnnouncesTheKernelToDisplay() {
        assertSame(kernel, SkillOptKernel.instance());
        assertEquals("skillopt", kernel.eval("Display.kernel()").getData(MIMEType.TEXT_PLAIN));
        assertNotNull(kernel.eval("RunFrames.class"), "frames.* is imported");
        assertNotNull(kernel.eval("SimpleBenchmark.class"), "env.* is imported");
    }

    @Test void tablesComeBackAsHtmlAndChartsAsPng() {
        DisplayData t = kernel.eval("Table.create(\"t\", IntColumn.create(\"a\", 1, 2))");
        assertTrue(((String) t.getData(MIMEType.TEXT_HTML)).contains("<td>2</td>"));
        assertTrue(((String) t.getData(MIMEType.TEXT_PLAIN)).contains("2 rows x 1 columns"));
        DisplayData c = kernel.eval("var ch = new org.knowm.xchart.XYChartBuilder().width(100).height(80).build();\n"
                + "ch.addSeries(\"s\", new double[] {1, 2}, new double[] {3, 4});\nch");
        assertNotNull(c.getData(MIMEType.IMAGE_PNG));
    }

    @Test void declarationsShowNothingAndNullShowsNull() {
        assertNull(kernel.eval("int kx = 1;"));
        assertEquals("null", kernel.eval("(String) null").getData(MIMEType.TEXT_PLAIN));
    }

    @Test void errorsAreFormattedForTheNotebook() {
        CellException e = assertThrows(CellException.class, () -> kernel.eval("Integer.parseInt(\"oops\")"));
        List<String> lines = kernel.formatError(e);
        assertEquals("java.lang.NumberFormatException: For input string: \"oops\"", lines.get(0));
    }

    @Test void cellsGoThroughTheMagicsAndUnknownOnesFailInOneLine() {
        assertNull(kernel.eval("%classpath ../target/skillopt4j-*-jupyter.jar"), "the first cell of every notebook");
        assertEquals("42", kernel.eval("%time 6 * 7").getData(MIMEType.TEXT_PLAIN));
        CellException e = assertThrows(CellException.MagicException.class, () -> kernel.eval("%mavenRepo x y"));
        assertEquals(List.of("error: unknown magic %mavenRepo on line 1; this kernel knows " + Magics.KNOWN), kernel.formatError(e));
    }

    @Test void completionAndCompletenessForTheFrontEnd() {
        var r = kernel.complete("Display.maxR", 12);
        assertTrue(r.getReplacements().contains("maxRows("), r.getReplacements().toString());
        assertEquals(8, r.getSourceStart());
        assertEquals("complete", kernel.isComplete("int q = 1;"));
        assertEquals("    ", kernel.isComplete("void f() {"));
    }
}
