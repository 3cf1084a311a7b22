package io.skillopt4j.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Issue #18 (transport) and #16 item 3, as a user sees them in a terminal: a child JVM runs the real CLI, so
 * everything a logger would print to stderr counts. A provider that is down gives at most two stderr lines
 * naming the URL and a non-zero exit (no backoff retries); a config that names no server is exit 2, one line.
 */
class DownProviderTest {
    record Proc(int code, String out, String err) {
        List<String> errLines() { return err.strip().isEmpty() ? List.of() : err.strip().lines().toList(); }
    }

    static Proc cli(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.skillopt4j.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        pb.environment().keySet().removeIf(k -> k.contains("OPENAI") || k.contains("API_KEY")); // nothing real, ever
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the CLI did not finish: " + Files.readString(dir.resolve("err.txt")));
        }
        return new Proc(p.exitValue(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) { return s.getLocalPort(); }
    }

    @Test void trainAgainstAProviderThatRefusesConnectionsFailsQuietly(@TempDir Path dir) throws Exception {
        String url = "http://127.0.0.1:" + closedPort() + "/v1";
        Proc r = cli(dir, "train", "--config", "configs/demo/default.yaml", "--skill_init", "configs/demo/initial_skill.md",
                "--out_root", dir.resolve("run").toString(), "--cfg-options", "model.openai_compatible_base_url=" + url);
        assertNotEquals(0, r.code(), r.err());
        assertTrue(r.errLines().size() <= 2, "at most two stderr lines:\n" + r.err());
        assertTrue(r.err().contains("cannot reach " + url + "/chat/completions: connection refused"), r.err());
        assertFalse(r.err().contains("retrying") || r.err().contains("INFO"), r.err());
        String log = Files.readString(dir.resolve("run/logs/transport.log"));
        assertTrue(log.contains("fast_fails") && !log.contains(" retries "), "fast fails, no retries: " + log.lines().findFirst().orElse(""));
    }

    @Test void demoAgainstAnUnknownHostFailsQuietly(@TempDir Path dir) throws Exception {
        Proc r = cli(dir, "demo", "--backend", "openai_compatible", "--no-progress", "--out_root", dir.resolve("run").toString(),
                "--cfg-options", "model.openai_compatible_base_url=http://nonexistent.invalid/v1");
        assertNotEquals(0, r.code(), r.err());
        List<String> problems = r.errLines().stream().filter(l -> !l.startsWith("skillopt demo: ")).toList(); // the banner lines
        assertTrue(problems.size() <= 2, "at most two stderr lines besides the banner:\n" + r.err());
        assertTrue(r.err().contains("cannot reach http://nonexistent.invalid/v1/chat/completions: unknown host"), r.err());
    }

    @Test void aConfigThatNamesNoServerNeverReachesAProvider(@TempDir Path dir) throws Exception {
        // the demo config without the simulator: SkillOpt would send it to https://api.openai.com/v1
        Proc r = cli(dir, "train", "--config", "configs/demo/default.yaml", "--out_root", dir.resolve("run").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("model.openai_compatible_base_url is not set"), r.err());
        assertFalse(Files.exists(dir.resolve("run/logs/transport.log")), "no call was made");
    }
}
