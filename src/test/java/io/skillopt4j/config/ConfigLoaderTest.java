package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest {
    @TempDir Path dir;

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    Map<String, Object> load(Path p) {
        return new ConfigLoader(new ArrayList<>()).load(p);
    }

    @Test
    void cycleThroughTwoFilesNamesTheChain() throws IOException {
        Path a = write("a.yaml", "_base_: b.yaml\nx: 1\n");
        write("b.yaml", "_base_: a.yaml\ny: 2\n");
        ConfigException e = assertThrows(ConfigException.class, () -> load(a));
        assertEquals("Circular _base_ inheritance: " + a + " -> " + dir.resolve("b.yaml") + " -> " + a, e.getMessage());
    }

    @Test
    void fileNamingItselfIsACycle() throws IOException {
        Path a = write("self.yaml", "_base_: ./self.yaml\n");
        ConfigException e = assertThrows(ConfigException.class, () -> load(a));
        assertEquals("Circular _base_ inheritance: " + a + " -> " + a, e.getMessage());
    }

    @Test
    void listBaseMergesInOrderThenChild() throws IOException {
        write("b1.yaml", "train:\n  seed: 1\n  batch_size: 3\nextra: {a: 1}\n");
        write("b2.yaml", "train:\n  seed: 2\nextra: {b: 2}\n");
        Path c = write("c.yaml", "_base_: [b1.yaml, b2.yaml]\ntrain:\n  num_epochs: 9\n");
        Map<String, Object> m = load(c);
        assertEquals(Map.of("seed", 2, "batch_size", 3, "num_epochs", 9), m.get("train"));
        assertEquals(Map.of("a", 1, "b", 2), m.get("extra"));
    }

    @Test
    void diamondBasesAreNotACycle() throws IOException {
        write("d.yaml", "train: {seed: 4}\n");
        write("b.yaml", "_base_: d.yaml\n");
        write("c.yaml", "_base_: d.yaml\n");
        Path a = write("a.yaml", "_base_: [b.yaml, c.yaml]\n");
        assertEquals(Map.of("seed", 4), load(a).get("train"));
    }

    @Test
    void absoluteAndRelativeBasesResolveAgainstTheIncludingFile() throws IOException {
        Path base = write("base/root.yaml", "train: {seed: 7}\n");
        write("sub/mid.yaml", "_base_: ../base/root.yaml\n");
        Path top = write("top.yaml", "_base_: " + dir.resolve("sub/mid.yaml") + "\n");
        assertEquals(Map.of("seed", 7), load(top).get("train"));
        assertTrue(Files.exists(base));
    }

    @Test
    void mergeFollowsUpstreamExample() throws IOException {
        write("base.yaml", "model: {optimizer: base-opt, target: base-tgt}\ntrain: {batch_size: 3, seed: 1}\n"
                + "gradient: {minibatch_size: 4}\nextra: {a: 1, b: {c: 2, d: 3}, lst: [1, 2, 3]}\n");
        Path child = write("child.yaml", "_base_: base.yaml\nbatch_size: 9\nextra: {b: {c: 20}, lst: [9]}\ngradient: null\n");
        Map<String, Object> m = load(child);
        assertEquals(List.of("model", "train", "gradient", "extra", "batch_size"), List.copyOf(m.keySet()));
        assertEquals(Map.of("seed", 1), m.get("train"));
        assertEquals(null, m.get("gradient"));
        assertEquals(Map.of("a", 1, "b", Map.of("c", 20, "d", 3), "lst", List.of(9)), m.get("extra"));
        Map<String, Object> flat = ConfigFormat.flatten(m);
        assertEquals(Map.of("extra", m.get("extra"), "batch_size", 9, "optimizer_model", "base-opt",
                "target_model", "base-tgt", "seed", 1), flat);
    }

    @Test
    void envSectionSurvivesLayersDeliberateFix() throws IOException {
        write("base.yaml", "env: {name: '', split_seed: 42, exec_timeout: 120}\n");
        Path c = write("c.yaml", "_base_: base.yaml\nenv: {name: searchqa, workers: 24}\n");
        Map<String, Object> m = load(c);
        assertEquals(Map.of("name", "searchqa", "split_seed", 42, "exec_timeout", 120, "workers", 24), m.get("env"));
    }

    @Test
    void codexAliasesNormalisePerLayerCanonicalWins() throws IOException {
        Path a = write("a.yaml", "model: {codex_cli_bin: /c, codex_bin: /d, sandbox: ro, codex_exec_sandbox: rw}\n");
        assertEquals(Map.of("codex_exec_path", "/c", "codex_exec_sandbox", "rw"), load(a).get("model"));
        Path b = write("b.yaml", "codex_path: /p\n");
        assertEquals(Map.of("codex_exec_path", "/p"), load(b));
    }

    @Test
    void nestedKeyBeatsFlatDuplicateWithinALayerAndChildOverridesBothForms() throws IOException {
        Path a = write("a.yaml", "batch_size: 5\ntrain: {batch_size: 6}\n");
        assertFalse(load(a).containsKey("batch_size"));
        write("base.yaml", "edit_budget: 3\noptimizer: {learning_rate: 4}\n");
        Path c = write("c.yaml", "_base_: base.yaml\nedit_budget: 7\n");
        Map<String, Object> m = load(c);
        assertEquals(7, m.get("edit_budget"));
        assertEquals(Map.of(), m.get("optimizer"));
    }

    @Test
    void emptyAndNullDocumentsAreEmptyMappings() throws IOException {
        assertEquals(Map.of(), load(write("e.yaml", "")));
        assertEquals(Map.of(), load(write("n.yaml", "null\n")));
    }

    @Test
    void unknownStructuredKeyWarnsWithSuggestion() throws IOException {
        Path a = write("a.yaml", "optimizer: {learning_rte: 3}\nenv: {whatever: 1}\n");
        List<ConfigWarning> w = new ArrayList<>();
        new ConfigLoader(w).load(a);
        assertEquals(List.of(new ConfigWarning("UserWarning", a + ": unknown key optimizer.learning_rte is ignored; "
                + "did you mean optimizer.learning_rate?")), w);
    }
}
