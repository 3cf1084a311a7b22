package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Not thread-safe; one per test class. The real agent CLIs (installed by ../shared/realcli/install.sh under
 * {@code REALCLI_PREFIX}, default /tmp/realcli) against ../shared/realcli/fake_agent_server.py on 127.0.0.1, with the
 * environment of its env.sh (a HOME of the test's own, the fake as the provider and as the proxy for anything else).
 * Tests that use it are skipped, with the reason, where either is missing.
 */
final class RealCli implements AutoCloseable {
    static final Path SHARED = Path.of("..", "shared", "realcli").toAbsolutePath().normalize();

    final Path home;
    final Path log;
    final int port;
    private final Process server;
    private final OkHttpClient http = new OkHttpClient.Builder().proxy(java.net.Proxy.NO_PROXY).build();

    private RealCli(Path home, Path log, int port, Process server) {
        this.home = home;
        this.log = log;
        this.port = port;
        this.server = server;
    }

    /** The installed CLI {@code name} (claude, codex, copilot, opencode); skips the test when it is absent. */
    static Path binary(String name) {
        String prefix = System.getenv().getOrDefault("REALCLI_PREFIX", "/tmp/realcli");
        Path bin = Path.of(prefix, "node_modules", ".bin", name);
        Assumptions.assumeTrue(Files.isExecutable(bin), "real CLI " + bin + " absent: run ../shared/realcli/install.sh");
        return bin;
    }

    /** Starts the fake provider (port 0, its log under {@code dir}); skips the test without ../shared/realcli or python3. */
    static RealCli start(Path dir) throws Exception {
        Path script = SHARED.resolve("fake_agent_server.py");
        Assumptions.assumeTrue(Files.isRegularFile(script), "no " + script + " (../shared absent): real-CLI tests skipped");
        Files.createDirectories(dir);
        Path portFile = dir.resolve("port");
        Path log = dir.resolve("server.jsonl");
        Process p;
        try {
            p = new ProcessBuilder("python3", script.toString(), "--port", "0", "--port-file", portFile.toString(), "--log", log.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("server.out").toFile()).start();
        } catch (IOException e) {
            Assumptions.abort("python3 cannot run: " + e.getMessage());
            throw e;
        }
        for (int i = 0; i < 400 && (!Files.isRegularFile(portFile) || Files.readString(portFile).isBlank()); i++) Thread.sleep(25);
        if (!Files.isRegularFile(portFile)) {
            p.destroyForcibly();
            throw new IllegalStateException("fake_agent_server.py did not start: " + Files.readString(dir.resolve("server.out")));
        }
        Path home = Files.createDirectories(dir.resolve("home"));
        return new RealCli(home, log, Integer.parseInt(Files.readString(portFile).strip()), p);
    }

    /** env.sh's environment: own HOME and XDG folders, the CLIs on PATH, the fake as Anthropic API and as proxy. */
    Map<String, String> env(Path cli) {
        Map<String, String> e = new HashMap<>();
        String url = "http://127.0.0.1:" + port;
        e.put("PATH", cli.getParent() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        e.put("HOME", home.toString());
        for (String[] x : new String[][] {{"XDG_CONFIG_HOME", ".config"}, {"XDG_DATA_HOME", ".local/share"}, {"XDG_CACHE_HOME", ".cache"},
                {"XDG_STATE_HOME", ".local/state"}}) e.put(x[0], home.resolve(x[1]).toString());
        e.put("ANTHROPIC_BASE_URL", url);
        e.put("ANTHROPIC_API_KEY", "dummy-offline-key");
        for (String k : List.of("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY", "DISABLE_AUTOUPDATER", "DISABLE_ERROR_REPORTING",
                "DISABLE_BUG_COMMAND", "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY", "CLAUDE_CODE_DISABLE_TERMINAL_TITLE")) e.put(k, "1");
        for (String k : List.of("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy")) e.put(k, url);
        e.put("NO_PROXY", "127.0.0.1,localhost");
        e.put("no_proxy", "127.0.0.1,localhost");
        return e;
    }

    /** Fault injection from now on ({@code fail} "" heals); {@code only} limits it to one API path suffix. */
    void fail(String fail, String only) throws IOException {
        String body = Json.compact(Map.of("fail", fail, "only", only));
        Request r = new Request.Builder().url("http://127.0.0.1:" + port + "/__control")
                .post(RequestBody.create(body, MediaType.get("application/json"))).build();
        try (Response res = http.newCall(r).execute()) {
            if (!res.isSuccessful()) throw new IOException("control answered " + res.code());
        }
    }

    /** The model requests logged so far (not the refused stray connections). */
    List<JsonNode> requests() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.isRegularFile(log)) return out;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            JsonNode n = Json.tree(line);
            if (!"stray".equals(n.path("proto").asText())) out.add(n);
        }
        return out;
    }

    /** Regular files under HOME/.claude/projects (session transcripts a run left behind). */
    List<Path> sessionFiles() throws IOException {
        Path projects = home.resolve(".claude/projects");
        if (!Files.isDirectory(projects)) return List.of();
        try (var s = Files.walk(projects)) {
            return s.filter(p -> !p.equals(projects)).toList();
        }
    }

    @Override public void close() {
        server.destroy();
        try {
            if (!server.waitFor(5, TimeUnit.SECONDS)) server.destroyForcibly();
        } catch (InterruptedException e) {
            server.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }
}
