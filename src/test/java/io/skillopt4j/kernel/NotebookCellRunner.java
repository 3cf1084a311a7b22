package io.skillopt4j.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import io.skillopt4j.notebook.Display;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs every code cell of one notebook through {@link JShellEngine} (no Jupyter), in a JVM whose working
 * directory is the notebook's folder, as Jupyter's is. Prints one line per cell; exits 1 at the first
 * failing cell with its traceback. Started by {@code NotebookCellsTest}.
 */
public final class NotebookCellRunner {
    public static void main(String[] args) throws Exception {
        Path nb = Path.of(args[0]);
        JsonNode root = Json.MAPPER.readTree(Files.readString(nb));
        try (JShellEngine jsh = JShellEngine.create(JShellEngine.systemClassPath())) {
            List<String> problems = jsh.startup(JShellEngine.DEFAULT_IMPORTS + "\n" + SkillOptKernel.startupScript());
            if (!problems.isEmpty()) {
                System.out.println("STARTUP FAILED: " + problems);
                System.exit(1);
            }
            int n = 0;
            for (JsonNode cell : root.path("cells")) {
                if (!"code".equals(cell.path("cell_type").asText())) continue;
                n++;
                String src = source(cell);
                long t0 = System.nanoTime();
                try {
                    var value = jsh.eval(src);
                    // Render as the kernel would, so renderer failures count as cell failures too.
                    String mimes = value.map(v -> Display.render(v.value()).data().keySet().toString()).orElse("-");
                    System.out.printf("cell %d ok (%d ms) %s%n", n, (System.nanoTime() - t0) / 1_000_000, mimes);
                } catch (CellException e) {
                    System.out.println("cell " + n + " FAILED:\n" + src + "\n---\n" + String.join("\n", e.traceback()));
                    System.exit(1);
                }
            }
            System.out.println(nb.getFileName() + ": " + n + " code cells ok");
        }
        System.exit(0);
    }

    static String source(JsonNode cell) {
        JsonNode s = cell.path("source");
        if (s.isTextual()) return s.asText();
        StringBuilder sb = new StringBuilder();
        s.forEach(line -> sb.append(line.asText()));
        return sb.toString();
    }
}
