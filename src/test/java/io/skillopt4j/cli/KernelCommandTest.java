package io.skillopt4j.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.skillopt4j.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.*;

class KernelCommandTest {
    @Test void installWritesAKernelspecThatStartsTheKernelFromTheJar(@TempDir Path tmp) throws Exception {
        Path jar = Files.writeString(tmp.resolve("skillopt4j-0.1.0-all.jar"), "not really a jar");
        Path extra = tmp.resolve("extra.jar");
        CliRun r = run("kernel", "install", "--prefix", tmp.resolve("env").toString(), "--jar", jar.toString(),
                "--jvm-opt=-Xmx3g", "--class-path", extra.toString());
        assertEquals(0, r.code(), r.err());
        Path spec = tmp.resolve("env/share/jupyter/kernels/skillopt-java/kernel.json");
        assertEquals("installed kernelspec 'skillopt-java' in " + spec.getParent().toAbsolutePath() + "\n", r.out().replace("\r", ""));
        JsonNode k = Json.mapper().readTree(Files.readString(spec));
        List<String> argv = new ArrayList<>();
        k.path("argv").forEach(a -> argv.add(a.asText()));
        assertEquals(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Djava.awt.headless=true", "-Xmx3g",
                "-cp", jar.toAbsolutePath() + File.pathSeparator + extra.toAbsolutePath(),
                "io.skillopt4j.kernel.SkillOptKernel", "{connection_file}"), argv);
        assertEquals("Java (SkillOpt4J)", k.path("display_name").asText());
        assertEquals("java", k.path("language").asText());
        assertEquals("message", k.path("interrupt_mode").asText());
    }

    @Test void nameAndJarMistakesAreOneLineErrors(@TempDir Path tmp) {
        CliRun bad = run("kernel", "install", "--prefix", tmp.toString(), "--name", "my kernel", "--jar", "x.jar");
        assertEquals(2, bad.code());
        assertEquals("error: skillopt kernel install: --name must be letters, digits, '.', '_' and '-', got \"my kernel\"\n",
                bad.err().replace("\r", ""));
        CliRun missing = run("kernel", "install", "--prefix", tmp.toString(), "--jar", tmp.resolve("nope.jar").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().startsWith("error: skillopt kernel install: --jar must be an existing skillopt4j -all.jar, got "), missing.err());
        CliRun both = run("kernel", "install", "--user", "--prefix", tmp.toString());
        assertEquals(2, both.code());
        assertTrue(both.err().contains("mutually exclusive"), both.err());
    }

    @Test void jshPrintsTheStartupScriptAndCanWriteIt(@TempDir Path tmp) throws Exception {
        CliRun r = run("jsh");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("import io.skillopt4j.notebook.*;") && r.out().contains("import tech.tablesaw.api.*;"), r.out());
        Path f = tmp.resolve("skillopt.jsh");
        CliRun w = run("jsh", "--write", f.toString());
        assertEquals(0, w.code());
        assertEquals(r.out(), Files.readString(f));
        assertTrue(w.out().contains("jshell --startup DEFAULT --startup " + f), w.out());
    }
}
