package io.skillopt4j.notebook;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * .ci/check_notebook.py, which CI runs on every notebook executed under JJava and our kernel: a cell whose
 * table comes back as text only, where the saved notebook has HTML, fails the check.
 */
class CheckNotebookScriptTest {
    @TempDir Path dir;

    private static String notebook(String... cellMimes) {
        StringBuilder cells = new StringBuilder();
        for (String mimes : cellMimes) {
            if (cells.length() > 0) cells.append(',');
            StringBuilder data = new StringBuilder("\"text/plain\": \"x\"");
            for (String m : mimes.split(" ")) if (!m.isEmpty()) data.append(", \"").append(m).append("\": \"x\"");
            cells.append("{\"cell_type\": \"code\", \"execution_count\": 1, \"metadata\": {}, \"source\": \"t\", \"outputs\": ")
                    .append("[{\"output_type\": \"execute_result\", \"execution_count\": 1, \"metadata\": {}, \"data\": {")
                    .append(data).append("}}]}");
        }
        return "{\"cells\": [" + cells + "], \"metadata\": {\"skillopt\": {\"expect\": [\"text/html\"]}}, \"nbformat\": 4, \"nbformat_minor\": 5}";
    }

    private record Result(int exit, String out) {}

    private Result check(String executed, String saved) throws Exception {
        Path e = Files.writeString(dir.resolve("executed.ipynb"), executed);
        Path s = Files.writeString(dir.resolve("saved.ipynb"), saved);
        Process p = new ProcessBuilder(List.of("/usr/bin/python3", ".ci/check_notebook.py", e.toString(), "--like", s.toString()))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test void sameRichKindsPerCellPass() throws Exception {
        Result r = check(notebook("text/html", "image/png"), notebook("text/html", "image/png"));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("rich MIME kinds per cell match the saved notebook"), r.out());
    }

    @Test void aCellThatLostItsRichOutputFails() throws Exception {
        Result r = check(notebook("text/html", ""), notebook("text/html", "image/png"));
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("code cell 2: text only (saved: image/png)"), r.out());
    }

    @Test void aNotebookWithoutItsExpectedMimeTypeFails() throws Exception {
        Result r = check(notebook(""), notebook(""));
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("no text/html output (metadata.skillopt.expect)"), r.out());
    }
}
