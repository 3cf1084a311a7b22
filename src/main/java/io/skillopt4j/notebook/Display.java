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
 * Thread-safe. Rich display for notebooks: Tablesaw tables (and run frames) as HTML tables, images,
 * XChart charts and run {@code Plot}s as PNG, {@link Markdown} documents (skills) as Markdown, {@link Diff}s and
 * {@link Html} as HTML.
 *
 * <p>Under the SkillOpt4J kernel and JJava (whose {@link JJavaExtension} runs when the jar is added)
 * the kernel's renderer learns these types by itself; under IJava, {@link #register()} teaches it (the
 * kernel is found by reflection: no kernel jar is needed at run time). A cell whose last value is a
 * {@code Table} then shows as a table; {@link #display(Object)} publishes mid-cell output. In
 * plain JShell nothing is registered and {@code display} prints readable text.
 * <pre>{@code
 * Display.register();              // safe to call again when the cell is re-run
 * Display.maxRows(50);
 * display(run.steps());            // HTML table under a kernel, text in JShell
 * }</pre>
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
        renderer(Run.class, Rendering.HTML, r -> RunRenderings.run(r, maxRows()));
        renderer(io.skillopt4j.frames.Compare.class, Rendering.HTML, c -> RunRenderings.compare(c, maxRows()));
        renderer(io.skillopt4j.frames.Plots.class, Rendering.HTML, RunRenderings::plots);
        renderer(Training.class, Rendering.HTML, t -> RunRenderings.training(t, maxRows()));
        renderer(TrainingProgress.class, Rendering.HTML, RunRenderings::progress);
    }

    private Display() {}

    /**
     * Registers the renderers with the running kernel, if any, and names it: {@code "skillopt"} (an
     * {@link #attach attached} kernel),
     * {@code "ijava"}, {@code "jjava"} or {@code "none"} (plain JShell / plain Java). Idempotent.
     */
    public static synchronized String register() {
        KernelBridge b = bridge();
        if (b == null) return "none";
        for (Entry e : RENDERERS) b.register(e.type(), e.mime(), Display::render);
        return b.flavor.name();
    }

    /**
     * Announces a kernel built on jupyter-jvm-basekernel or JJava's base that runs in this JVM (the
     * SkillOpt4J kernel calls this at start, {@link JJavaExtension} when JJava loads the jar; IJava is
     * found without it). Null detaches.
     */
    public static synchronized void attach(Object kernel) {
        attached = kernel;
        bridge = null;
    }

    /** Forgets {@code kernel} if it is the attached one (it shut down). */
    public static synchronized void detach(Object kernel) {
        if (attached == kernel) attach(null);
    }

    /** The kernel this JVM runs under: {@code "skillopt"}, {@code "ijava"}, {@code "jjava"} or {@code "none"}. */
    public static synchronized String kernel() {
        KernelBridge b = bridge();
        return b == null ? "none" : b.flavor.name();
    }

    private static KernelBridge bridge() {
        // Re-detect when there was none yet or the kernel object changed (an in-process kernel restarted).
        if (bridge == null || bridge.isStale(attached)) bridge = KernelBridge.detect(attached).orElse(null);
        return bridge;
    }

    /**
     * Shows {@code value} now: as {@code display_data} under a kernel, as text on {@code System.out}
     * otherwise. Null prints {@code null}.
     */
    public static void display(Object value) {
        KernelBridge b;
        synchronized (Display.class) {
            register();
            b = bridge;
        }
        if (b != null && value != null) b.display(value);
        else System.out.println(value == null ? "null" : render(value).text());
    }

    /** Not thread-safe; one per live output. An output that is replaced in place by each {@link #update}. */
    public interface Live {
        /** Replaces the output with {@code value} (under a kernel); prints its text on a new line otherwise. */
        void update(Object value);
    }

    /**
     * Shows {@code value} now as an output that later {@link Live#update} calls replace in place: under a kernel a
     * {@code display_data} with a display id, then {@code update_display_data}; in plain JShell each value's text
     * is printed (keep it one line). Used for the progress of a blocking {@code train()}.
     */
    public static Live live(Object value) {
        KernelBridge b;
        synchronized (Display.class) {
            register();
            b = bridge;
        }
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
            // Later registrations win, so a user's renderer overrides a built-in one for the same type.
            for (int i = RENDERERS.size() - 1; i >= 0 && match == null; i--) {
                if (RENDERERS.get(i).type().isInstance(value)) match = RENDERERS.get(i);
            }
        }
        return match == null ? Rendering.text(String.valueOf(value)) : match.fn().apply(value);
    }

    /**
     * Adds (or replaces) the renderer for {@code type}; {@code preferredMime} is what front ends show
     * first. Registered with the running kernel immediately.
     */
    public static synchronized <T> void renderer(Class<T> type, String preferredMime, Function<? super T, Rendering> fn) {
        Function<Object, Rendering> f = o -> fn.apply(type.cast(o));
        RENDERERS.removeIf(e -> e.type().equals(type));
        RENDERERS.add(new Entry(type, preferredMime, f));
        if (bridge != null) bridge.register(type, preferredMime, Display::render);
    }

    /** Sets how many table rows are shown (first and last halves); at least 2. */
    public static synchronized void maxRows(int n) {
        if (n < 2) throw new IllegalArgumentException("Display.maxRows must be >= 2, got " + n);
        maxRows = n;
    }

    /** How many table rows are shown. */
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

    /** Shows the kernel in use and the registered types, as text. */
    public static synchronized String describe() {
        StringBuilder sb = new StringBuilder("kernel: ").append(kernel()).append(", maxRows: ").append(maxRows).append(", types:");
        for (Entry e : RENDERERS) sb.append(' ').append(e.type().getSimpleName()).append("→").append(e.mime());
        return sb.toString();
    }
}
