package io.skillopt4j.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import io.skillopt4j.notebook.Display;
import io.skillopt4j.notebook.Startup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs every code cell of the given notebooks through {@link JShellEngine} (no Jupyter), each notebook in a
 * fresh JShell session, in a JVM whose working directory is the notebooks' folder, as Jupyter's is. Prints
 * one line per cell and a {@code NOTEBOOK <name> OK|FAILED} line per notebook (with the failing cell's
 * traceback); the exit code is the number of failed notebooks. Started by {@code NotebookCellsTest}.
 */
public final class NotebookCellRunner {
    public static void main(String[] args) throws Exception {
        int failed = 0;
        for (String arg : args) if (!run(Path.of(arg))) failed++;
        System.exit(failed);
    }

    static boolean run(Path nb) throws Exception {
        JsonNode root = Json.mapper().readTree(Files.readString(nb));
        String name = nb.getFileName().toString();
        Display.maxRows(20);
        long start = System.nanoTime();
        try (JShellEngine jsh = JShellEngine.create(JShellEngine.systemClassPath())) {
            List<String> problems = jsh.startup(Startup.session());
            Magics magics = new Magics(jsh, new LocalMaven(LocalMaven.defaultRepository(), true));
            if (!problems.isEmpty()) {
                System.out.println("NOTEBOOK " + name + " FAILED: startup: " + problems);
                return false;
            }
            int n = 0;
            for (JsonNode cell : root.path("cells")) {
                if (!"code".equals(cell.path("cell_type").asText())) continue;
                n++;
                String src = source(cell);
                long t0 = System.nanoTime();
                try {
                    var value = magics.eval(src);
                    // Render as the kernel would, so renderer failures count as cell failures too.
                    String mimes = value.map(v -> Display.render(v.value()).data().keySet().toString()).orElse("-");
                    System.out.printf("  %s cell %d ok (%d ms) %s%n", name, n, (System.nanoTime() - t0) / 1_000_000, mimes);
                } catch (CellException e) {
                    System.out.println("NOTEBOOK " + name + " FAILED at code cell " + n + ":\n" + src + "\n---\n"
                            + String.join("\n", e.traceback()));
                    return false;
                }
            }
            System.out.printf("NOTEBOOK %s OK: %d code cells in %d ms%n", name, n, (System.nanoTime() - start) / 1_000_000);
            return true;
        }
    }

    static String source(JsonNode cell) {
        JsonNode s = cell.path("source");
        if (s.isTextual()) return s.asText();
        StringBuilder sb = new StringBuilder();
        s.forEach(line -> sb.append(line.asText()));
        return sb.toString();
    }
}
