package io.skillopt4j.notebook;

import io.skillopt4j.frames.Plot;
import io.skillopt4j.frames.Diff;
import io.skillopt4j.frames.Markdown;
import io.skillopt4j.run.TrainingProgress;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

import java.awt.image.BufferedImage;
import java.awt.image.RenderedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Thread-safe. Rich display for notebooks: tables as HTML, images, charts and plots as PNG, skills as Markdown,
 * diffs as HTML. Our kernel and JJava ({@link JJavaExtension}) register the renderers by themselves; under IJava
 * {@link #register()} does (found by reflection: no kernel jar at run time); plain JShell gets readable text.
 */
public final class Display {
    private record Entry(Class<?> type, String mime, Function<Object, Rendering> fn) {}

    private static final List<Entry> RENDERERS = new ArrayList<>();
    private static int maxRows = 20;
    private static KernelBridge bridge;
    private static Object attached;

    static {
        renderer(Table.class, Rendering.HTML, t -> Renderings.table(t, maxRows()));
        renderer(RenderedImage.class, Rendering.PNG, Renderings::image);
        renderer(BufferedImage.class, Rendering.PNG, Renderings::image);
        renderer(Chart.class, Rendering.PNG, Renderings::chart);
        renderer(Markdown.class, Rendering.MARKDOWN, Renderings::markdown);
        renderer(Html.class, Rendering.HTML, Renderings::html);
        renderer(Diff.class, Rendering.HTML, Renderings::diff);
        renderer(io.skillopt4j.frames.BundleDiff.class, Rendering.HTML, Renderings::bundleDiff);
        renderer(Rendering.class, Rendering.HTML, r -> r);
        renderer(Plot.class, Rendering.PNG, p -> Rendering.of(Rendering.PNG,
                java.util.Base64.getEncoder().encodeToString(p.png()), "plot " + p.name() + " " + p.image().getWidth() + "x" + p.image().getHeight()));
        renderer(Run.class, Rendering.HTML, r -> Renderings.run(r, maxRows()));
        renderer(io.skillopt4j.frames.Compare.class, Rendering.HTML, c -> Renderings.compare(c, maxRows()));
        renderer(io.skillopt4j.frames.Plots.class, Rendering.HTML, Renderings::plots);
        renderer(Training.class, Rendering.HTML, t -> Renderings.training(t, maxRows()));
        renderer(TrainingProgress.class, Rendering.HTML, Renderings::progress);
    }

    private Display() {}

    /** Registers the renderers with the running kernel, if any, and names it (as {@link #kernel()}). Idempotent. */
    public static synchronized String register() {
        KernelBridge b = bridge();
        if (b == null) return "none";
        for (Entry e : RENDERERS) b.register(e.type(), e.mime(), Display::render);
        return b.flavor.name();
    }

    /** Announces a basekernel or JJava kernel running in this JVM (IJava is found without it). Null detaches. */
    public static synchronized void attach(Object kernel) {
        attached = kernel;
        bridge = null;
    }

    /** Forgets {@code kernel} if it is the attached one (it shut down). */
    public static synchronized void detach(Object kernel) {
        if (attached == kernel) attach(null);
    }

    /** {@code "skillopt"} (an {@link #attach attached} kernel), {@code "ijava"}, {@code "jjava"} or {@code "none"}. */
    public static synchronized String kernel() {
        KernelBridge b = bridge();
        return b == null ? "none" : b.flavor.name();
    }

    private static KernelBridge bridge() {
        // Re-detect when there was none yet or the kernel object changed (an in-process kernel restarted).
        if (bridge == null || bridge.isStale(attached)) bridge = KernelBridge.detect(attached).orElse(null);
        return bridge;
    }

    private static synchronized KernelBridge registered() {
        register();
        return bridge;
    }

    /** Shows {@code value} (null too) now: as {@code display_data} under a kernel, else as text on stdout. */
    public static void display(Object value) {
        KernelBridge b = registered();
        if (b != null && value != null) b.display(value, null);
        else System.out.println(value == null ? "null" : render(value).text());
    }

    /** Not thread-safe; one per live output. An output that is replaced in place by each {@link #update}. */
    public interface Live {
        /** Replaces the output with {@code value} (under a kernel); prints its text on a new line otherwise. */
        void update(Object value);
    }

    /** Shows {@code value} as an output each {@link Live#update} replaces; plain JShell prints each (one line). */
    public static Live live(Object value) {
        KernelBridge b = registered();
        if (b == null) {
            System.out.println(render(value).text());
            return v -> System.out.println(render(v).text());
        }
        String id = "skillopt-" + java.util.UUID.randomUUID();
        b.display(value, id);
        return v -> b.update(v, id);
    }

    /** The rendering the kernel would show for {@code value}; plain {@code toString()} for unknown types. */
    public static Rendering render(Object value) {
        if (value == null) return Rendering.text("null");
        Entry match = null;
        synchronized (Display.class) {
            // The last match wins: later registrations win, so a user's renderer overrides a built-in one for the same type.
            for (Entry e : RENDERERS) if (e.type().isInstance(value)) match = e;
        }
        return match == null ? Rendering.text(String.valueOf(value)) : match.fn().apply(value);
    }

    /** Adds (or replaces) the renderer for {@code type}, with the running kernel too; front ends prefer the mime. */
    public static synchronized <T> void renderer(Class<T> type, String preferredMime, Function<? super T, Rendering> fn) {
        RENDERERS.removeIf(e -> e.type().equals(type));
        RENDERERS.add(new Entry(type, preferredMime, o -> fn.apply(type.cast(o))));
        if (bridge != null) bridge.register(type, preferredMime, Display::render);
    }

    /** Sets how many table rows are shown (first and last halves); at least 2. */
    public static synchronized void maxRows(int n) {
        if (n < 2) throw new IllegalArgumentException("Display.maxRows must be >= 2, got " + n);
        maxRows = n;
    }

    public static synchronized int maxRows() {
        return maxRows;
    }

    /** {@link Html} for static import: {@code display(html("<b>ok</b>"))}. */
    public static Html html(String html) {
        return Html.of(html);
    }

    /** {@link Markdown} for static import. */
    public static Markdown markdown(String text) {
        return Markdown.of(text);
    }
}
