package io.skillopt4j.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Native delivery against the REAL Claude Code CLI (../shared/realcli: the pinned CLI under $REALCLI_PREFIX or
 * /tmp/realcli, the loopback fake provider): the bundle installed under .claude/skills/NAME/ is discovered, and the
 * provider sees it listed the way Claude Code lists skills. Skipped when the CLI or the harness is absent.
 */
class RealClaudeNativeSkillTest {
    private static final Path HARNESS = Path.of("../shared/realcli").toAbsolutePath().normalize();
    private static final Path CLAUDE = Path.of(System.getenv().getOrDefault("REALCLI_PREFIX", "/tmp/realcli"), "node_modules/.bin/claude");

    @TempDir Path tmp;

    @Test
    void claudeCodeListsTheInstalledBundleToTheModel() throws Exception {
        assumeTrue(Files.isRegularFile(HARNESS.resolve("fake_agent_server.py")), "no ../shared/realcli harness");
        assumeTrue(Files.isExecutable(CLAUDE), "no real Claude Code CLI at " + CLAUDE + " (../shared/realcli/install.sh)");
        Path portFile = tmp.resolve("port"), dump = tmp.resolve("dump");
        Process server = new ProcessBuilder("python3", HARNESS.resolve("fake_agent_server.py").toString(), "--port", "0",
                "--port-file", portFile.toString(), "--log", tmp.resolve("server.jsonl").toString(), "--dump-dir", dump.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("server.out").toFile()).start();
        try {
            for (int i = 0; i < 200 && (!Files.isRegularFile(portFile) || Files.readString(portFile).isBlank()); i++) Thread.sleep(50);
            String port = Files.readString(portFile).strip();
            Map<String, String> env = new HashMap<>();
            Path home = Files.createDirectories(tmp.resolve("home"));
            env.put("HOME", home.toString());
            env.put("PATH", CLAUDE.getParent() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + port);
            env.put("ANTHROPIC_API_KEY", "dummy-offline-key");
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
            env.put("CLAUDE_CODE_MAX_RETRIES", "0");
            env.put("HTTPS_PROXY", "http://127.0.0.1:" + port);
            env.put("HTTP_PROXY", "http://127.0.0.1:" + port);
            env.put("NO_PROXY", "127.0.0.1,localhost");
            // as root, bypassPermissions needs a sandbox marker; this one passes the backend's env filter
            if ("root".equals(System.getProperty("user.name"))) env.put("CLAUDE_CODE_BUBBLEWRAP", "1");
            String skillMd = "---\nname: house-rules\ndescription: House formats of the operations team; use it for every question in task.md.\n---\n\n"
                    + "# House rules\nBefore answering, read references/house-rules.md.\n";
            ExecTask task = new ExecTask("item-1", "Who designed the Alder Observatory?", "", tmp.resolve("pred/item-1/ws"), tmp.resolve("pred/item-1"),
                    Duration.ofSeconds(120), Map.of(".claude/skills/house-rules/SKILL.md", skillMd,
                    ".claude/skills/house-rules/references/house-rules.md", "- Dates: YYYY-MM-DD.\n"));
            ExecResult r = ClaudeCodeExecAgent.builder().path(CLAUDE.toString()).model("claude-sonnet-4-6").env(env).build().run(task);
            assertTrue(r.ok(), r.error());
            String listed = "- house-rules: House formats of the operations team; use it for every question in task.md.";
            List<Path> bodies;
            try (Stream<Path> s = Files.list(dump)) { bodies = s.sorted().toList(); }
            assertFalse(bodies.isEmpty(), "the fake provider saw no request");
            boolean seen = false;
            for (Path b : bodies) {
                String text = Files.readString(b).replace("\\n", "\n");
                if (text.contains("The following skills are available for use with the Skill tool") && text.contains(listed)) seen = true;
            }
            assertTrue(seen, "no request listed the skill; bodies: " + bodies);
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
