package io.skillopt4j.notebook;

import io.skillopt4j.frames.Diff;
import io.skillopt4j.frames.Markdown;
import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.jupyter.kernel.JupyterIO;
import org.dflib.jjava.jupyter.kernel.LanguageInfo;
import org.dflib.jjava.jupyter.kernel.ReplacementOptions;
import org.dflib.jjava.jupyter.kernel.comm.CommManager;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.dflib.jjava.jupyter.kernel.magic.MagicsRegistry;
import org.dflib.jjava.jupyter.kernel.util.StringStyler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChartBuilder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The JJava extension against JJava's real API jar (1.0-a6, the one we compile against): a kernel built on
 * JJava's {@code BaseKernel}, never connected, that records what it evaluates and displays. The same
 * extension in the real JJava kernel is exercised by {@code .ci/notebooks} (every notebook under JJava).
 */
class JJavaExtensionTest {
    /** Not thread-safe. JJava's base kernel with the abstract parts stubbed and outputs recorded. */
    static final class RecordingJJavaKernel extends BaseKernel {
        final List<String> evaluated = new ArrayList<>();
        final List<DisplayData> displayed = new ArrayList<>();

        RecordingJJavaKernel() {
            super("test", "0", new LanguageInfo("java", "17", "text/x-java", ".jshell", "java", "java", "java"), List.of(),
                    null, new JupyterIO(StandardCharsets.UTF_8), new CommManager(), new Renderer(), null, new MagicsRegistry(),
                    true, new StringStyler("", "", "", i -> ""));
        }

        @Override public Object evalRaw(String source) {
            evaluated.add(source);
            return null;
        }

        @Override public DisplayData inspect(String code, int at, boolean extraDetail) {
            return null;
        }

        @Override public ReplacementOptions complete(String code, int at) {
            return null;
        }

        @Override public String isComplete(String code) {
            return IS_COMPLETE_YES;
        }

        @Override public void display(DisplayData data) {
            displayed.add(data);
        }
    }

    @AfterEach void detach() {
        Display.attach(null);
    }

    @Test void jjavaFindsTheExtensionThroughServiceLoader() {
        List<String> found = ServiceLoader.load(Extension.class).stream().map(p -> p.type().getName()).toList();
        assertEquals(List.of(JJavaExtension.class.getName()), found);
    }

    @Test void installingRegistersRenderersWithTheKernelAndRunsTheSessionImports() {
        RecordingJJavaKernel kernel = new RecordingJJavaKernel();
        new JJavaExtension().install(kernel);

        assertEquals("jjava", Display.kernel());
        assertEquals(List.of(Startup.session()), kernel.evaluated);
        assertTrue(Startup.session().contains("import io.skillopt4j.notebook.*;"));
        assertTrue(Startup.session().contains("import static io.skillopt4j.notebook.Display.display;"));

        // What the kernel shows for a cell's last value comes from its own renderer, now taught our types.
        Renderer r = kernel.getRenderer();
        DisplayData table = r.render(DisplayTest.numbers(3));
        assertTrue(((String) table.getData(MIMEType.TEXT_HTML)).contains("<td>3</td>"));
        assertTrue(((String) table.getData(MIMEType.TEXT_PLAIN)).contains("3 rows"));
        assertEquals("# Skill", r.render(Markdown.of("# Skill")).getData(MIMEType.TEXT_MARKDOWN));
        assertTrue(((String) r.render(Diff.of("a", "x\ny", "b", "x\nz")).getData(MIMEType.TEXT_HTML)).contains("z"));
        var chart = new XYChartBuilder().width(120).height(80).title("t").build();
        chart.addSeries("s", new double[] {1, 2}, new double[] {3, 4});
        assertTrue(r.render(chart).hasDataForType(MIMEType.IMAGE_PNG));
    }

    @Test void displayPublishesThroughTheJJavaKernel() {
        RecordingJJavaKernel kernel = new RecordingJJavaKernel();
        new JJavaExtension().install(kernel);
        Display.display(Markdown.of("**bold**"));
        assertEquals(1, kernel.displayed.size());
        assertEquals("**bold**", kernel.displayed.get(0).getData(MIMEType.TEXT_MARKDOWN));
    }

    @Test void aJJavaKernelStartingWithTheJarOnItsClassPathLoadsTheExtensionItself() {
        RecordingJJavaKernel kernel = new RecordingJJavaKernel();
        kernel.onStartup(); // what JJava does at start: ServiceLoader over its class path, then install()
        try {
            assertEquals(List.of(Startup.session()), kernel.evaluated);
            assertEquals("jjava", Display.kernel());
            // Without the extension's attach, Display still finds JJava's running kernel by itself.
            Display.attach(null);
            assertEquals("jjava", Display.kernel());
            Display.display(Markdown.of("found"));
            assertEquals("found", kernel.displayed.get(0).getData(MIMEType.TEXT_MARKDOWN));
        } finally {
            kernel.onShutdown(false);
        }
        assertEquals("none", Display.kernel());
    }

    @Test void uninstallDetachesAndAReinstalledKernelIsUsed() {
        RecordingJJavaKernel first = new RecordingJJavaKernel();
        JJavaExtension ext = new JJavaExtension();
        ext.install(first);
        ext.uninstall(first);
        assertEquals("none", Display.kernel());

        RecordingJJavaKernel second = new RecordingJJavaKernel();
        ext.install(second);
        Display.display(Html.of("<b>x</b>"));
        assertTrue(first.displayed.isEmpty());
        assertEquals("<b>x</b>", second.displayed.get(0).getData(MIMEType.TEXT_HTML));
    }
}
