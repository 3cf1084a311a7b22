package io.skillopt4j.notebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The notebooks in notebooks/ are committed with outputs (so they read well on GitHub): every code cell
 * ran, none failed, and the rich outputs each declares in {@code metadata.skillopt.expect} (text/html for
 * frames, image/png for plots, ...) are there. Refresh them with {@code .ci/notebooks --save}.
 */
class SavedNotebooksTest {
    @TestFactory Stream<DynamicTest> savedNotebooksCarryTheirRichOutputs() throws Exception {
        List<Path> nbs;
        try (Stream<Path> s = Files.list(Path.of("notebooks"))) {
            nbs = s.filter(p -> p.toString().endsWith(".ipynb")).sorted().toList();
        }
        assertFalse(nbs.isEmpty());
        return nbs.stream().map(nb -> DynamicTest.dynamicTest(nb.getFileName().toString(), () -> check(nb)));
    }

    private static void check(Path nb) throws Exception {
        JsonNode root = Json.mapper().readTree(Files.readString(nb));
        assertEquals("skillopt-java", root.path("metadata").path("kernelspec").path("name").asText(), nb + ": kernelspec");
        List<String> problems = new ArrayList<>();
        Set<String> mimes = new HashSet<>();
        int code = 0;
        for (JsonNode cell : root.path("cells")) {
            if (!"code".equals(cell.path("cell_type").asText())) continue;
            code++;
            if (cell.path("execution_count").isNull() || cell.path("execution_count").isMissingNode()) {
                problems.add("code cell " + code + " has no saved execution");
            }
            for (JsonNode out : cell.path("outputs")) {
                if ("error".equals(out.path("output_type").asText())) {
                    problems.add("code cell " + code + " saved an error: " + out.path("evalue").asText());
                }
                out.path("data").fieldNames().forEachRemaining(mimes::add);
            }
        }
        JsonNode expect = root.path("metadata").path("skillopt").path("expect");
        assertTrue(expect.size() > 0, nb + ": metadata.skillopt.expect lists no MIME types");
        for (JsonNode m : expect) if (!mimes.contains(m.asText())) problems.add("no " + m.asText() + " output");
        assertTrue(problems.isEmpty(), nb + ":\n" + String.join("\n", problems));
    }
}
