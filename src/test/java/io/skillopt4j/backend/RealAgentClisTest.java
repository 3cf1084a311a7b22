package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * codex_exec, copilot_exec, copilot_chat and opencode_exec on the REAL Codex 0.171.0, Copilot 1.0.102 and OpenCode
 * 1.18.33 binaries (installed by ../shared/realcli/install.sh under $REALCLI_PREFIX, default /tmp/realcli), each
 * pointed at ../shared/realcli/fake_agent_server.py on a loopback port: a 200 KiB prompt goes through every backend,
 * a provider 401 is a non-retriable error on the first attempt, copilot_chat is offered no tool, and no session file
 * stays behind. Skipped with a reason when the CLIs or ../shared are absent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealAgentClisTest {
    static final String BIG = "Who designed the Alder Observatory? " + "x".repeat(200 * 1024);
    static final Path SHARED = Path.of("").toAbsolutePath().resolve("../shared/realcli").normalize();
    static final Path BIN = Path.of(System.getenv().getOrDefault("REALCLI_PREFIX", "/tmp/realcli")).resolve("node_modules/.bin");

    Path root;
    Process server;
    String port;
    Path home;
    Path log;
    Map<String, String> env;
    final OkHttpClient http = new OkHttpClient.Builder().proxy(Proxy.NO_PROXY).build();

    @BeforeAll void startFakeProvider() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(SHARED.resolve("fake_agent_server.py")), "needs ../shared/realcli (the real-CLI harness)");
        for (String cli : List.of("codex", "copilot", "opencode")) {
            Assumptions.assumeTrue(Files.isExecutable(BIN.resolve(cli)), "needs the real " + cli + " CLI under " + BIN + " (../shared/realcli/install.sh)");
        }
        root = Files.createTempDirectory("skillopt-realagents-");
        Path portFile = root.resolve("port");
        log = root.resolve("server.jsonl");
        server = new ProcessBuilder("python3", SHARED.resolve("fake_agent_server.py").toString(), "--port", "0", "--port-file", portFile.toString(),
                "--log", log.toString()).redirectErrorStream(true).redirectOutput(root.resolve("server.out").toFile()).start();
        for (int i = 0; i < 400 && (!Files.isRegularFile(portFile) || Files.readString(portFile).isBlank()); i++) Thread.sleep(25);
        port = Files.readString(portFile).strip();
        home = Files.createDirectories(root.resolve("home"));
        env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("PATH", BIN + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        for (String[] x : new String[][] {{"XDG_CONFIG_HOME", ".config"}, {"XDG_DATA_HOME", ".local/share"}, {"XDG_CACHE_HOME", ".cache"}}) {
            env.put(x[0], home.resolve(x[1]).toString());
        }
        // anything that still tries to leave the machine ends at the fake's CONNECT handler
        for (String k : List.of("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy")) env.put(k, "http://127.0.0.1:" + port);
        env.put("NO_PROXY", "127.0.0.1,localhost");
        env.put("no_proxy", "127.0.0.1,localhost");
        env.put("CODEX_HOME", home.resolve(".codex").toString());
        env.put("OPENAI_API_KEY", "dummy-offline-key");
        env.put("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:" + port + "/v1");
        env.put("COPILOT_PROVIDER_API_KEY", "dummy");
        env.put("COPILOT_MODEL", "gpt-4o");
        env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
        Map<String, String> scripts = new HashMap<>(env);
        scripts.put("REALCLI_HOME", home.toString());
        run(scripts, SHARED.resolve("codex-config.sh").toString(), port);
        run(scripts, SHARED.resolve("opencode-config.sh").toString(), port);
    }

    @AfterAll void stop() {
        if (server != null) server.destroyForcibly();
        io.skillopt4j.internal.AtomicFiles.deleteTreeQuietly(root);
    }

    @BeforeEach void heal() throws IOException { control(""); }

    static void run(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", cmd) + ": " + out);
    }

    void control(String fail) throws IOException {
        String body = Json.compact(Map.of("fail", fail, "only", ""));
        Request req = new Request.Builder().url("http://127.0.0.1:" + port + "/__control")
                .post(RequestBody.create(body, MediaType.get("application/json"))).build();
        try (Response r = http.newCall(req).execute()) {
            assertEquals(200, r.code());
        }
    }

    /** The fake's log lines from {@code from} on (one JSON object per request). */
    List<JsonNode> requests(int from) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int i = from; i < lines.size(); i++) if (!lines.get(i).isBlank()) out.add(Json.tree(lines.get(i)));
        return out;
    }

    int logged() throws IOException { return Files.isRegularFile(log) ? Files.readAllLines(log).size() : 0; }

    ExecTask task(String name, String prompt) {
        Path dir = root.resolve("pred").resolve(name);
        return new ExecTask(name, prompt + "\n\nWork in this workspace, then give your final answer inside <answer>...</answer>.",
                "## Answer Rules\n- Answer with the exact shortest span.", dir.resolve("ws"), dir, Duration.ofSeconds(240),
                Map.of("task.md", "## Context\n[DOC] Title: Alder Observatory. Fact: Marta Ilves.\n\n## Question\nWho designed the Alder Observatory?\n"));
    }

    /** The largest user text a request of the CLI carried. */
    long largestPrompt(int from) throws IOException {
        return requests(from).stream().mapToLong(r -> r.path("user_chars").asLong(0)).max().orElse(0);
    }

    static long filesUnder(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    ExecAgent codexAgent() {
        return CodexExecAgent.builder().model("gpt-4o").settings(new CodexSettings(BIN.resolve("codex").toString(), null, null, null, false, false, null, null, 1))
                .env(env).timeout(Duration.ofSeconds(120)).backoff(Backoff.NONE).build();
    }

    ExecAgent copilotAgent() { return CopilotExecAgent.builder().path(BIN.resolve("copilot").toString()).env(env).timeout(Duration.ofSeconds(120)).backoff(Backoff.NONE).build(); }

    ExecAgent openCodeAgent() {
        return OpenCodeExecAgent.builder().path(BIN.resolve("opencode").toString()).model("fake/fake-model").env(env).timeout(Duration.ofSeconds(180))
                .backoff(Backoff.NONE).build();
    }

    @Test void codexExecTakesA200KiBPromptParsesItsStepsAndLeavesNoSessionFile() throws Exception {
        int from = logged();
        ExecResult r = codexAgent().run(task("codex-big", BIG));

        assertTrue(r.ok(), r.error());
        assertTrue(r.answer().startsWith("Marta Ilves"), "the answer comes from task.md, read through a tool: " + r.answer());
        assertTrue(largestPrompt(from) > 200 * 1024, "the whole prompt reached the provider");
        assertTrue(r.trace().stream().anyMatch(s -> s.kind() == TraceStep.Kind.TOOL_CALL && s.tool().equals("shell") && s.text().contains("SKILL.md")), r.trace().toString());
        assertTrue(r.usage().promptTokens() > 0 && r.usage().completionTokens() > 0, r.usage().toString());
        assertEquals(0, filesUnder(home.resolve(".codex/sessions")), "--ephemeral: no rollout file");

        ChatModel chat = CodexChatModel.builder().model("gpt-4o").settings(new CodexSettings(BIN.resolve("codex").toString(), null, null, null, false, false, null, null, 1))
                .env(env).backoff(Backoff.NONE).build();
        ChatResponse c = chat.chat(ChatRequest.of("You are terse.", BIG));
        assertFalse(c.text().isBlank());
        assertTrue(c.usage().totalTokens() > 0);
    }

    @Test void codex401IsNonRetriableOnTheFirstAttempt() throws Exception {
        control("401");
        int from = logged();
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> codexAgent().run(task("codex-401", "Q")));

        assertTrue(e.getMessage().startsWith("codex_exec: the Codex model provider's API answered 401 (invalid API key)"), e.getMessage());
        // one CLI run: the provider's own retries (request_max_retries = 1 in codex-config.sh) and nothing of ours
        assertTrue(requests(from).stream().filter(r -> "fail_401".equals(r.path("label").asText())).count() <= 2);
    }

    @Test void copilotExecAndChatTakeA200KiBPromptOfferTheChatNoToolAndLeaveNoSession() throws Exception {
        int from = logged();
        ExecResult r = copilotAgent().run(task("copilot-big", BIG));

        assertTrue(r.ok(), r.error());
        assertTrue(r.answer().startsWith("Marta Ilves"), "the answer comes from task.md, read through a tool: " + r.answer());
        assertTrue(largestPrompt(from) > 200 * 1024);
        assertTrue(r.trace().stream().anyMatch(s -> s.kind() == TraceStep.Kind.TOOL_CALL), r.trace().toString());

        int chatFrom = logged();
        ChatModel chat = CopilotChatModel.builder().binary(BIN.resolve("copilot").toString()).env(env).backoff(Backoff.NONE).build();
        assertFalse(chat.chat(ChatRequest.of("You are terse.", BIG)).text().isBlank());
        List<JsonNode> calls = requests(chatFrom).stream().filter(x -> !"stray".equals(x.path("proto").asText())).toList();
        assertFalse(calls.isEmpty());
        for (JsonNode c : calls) assertEquals(0, c.path("n_tools").asInt(-1), "copilot_chat is offered no tool: " + c);
        assertEquals(0, filesUnder(home.resolve(".copilot/session-state")), "no session left under HOME");
        assertEquals(0, filesUnder(home.resolve(".copilot/logs")));
    }

    @Test void copilot401IsNonRetriableNotAMissingStep() throws Exception {
        control("401");
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> copilotAgent().run(task("copilot-401", "Q")));
        assertTrue(e.getMessage().startsWith("copilot_exec: the model provider's API answered 401 (invalid API key)"), e.getMessage());
    }

    @Test void openCodeExecAndChatTakeA200KiBPromptWithPermissionsScopedAndStoreNoSession() throws Exception {
        int from = logged();
        ExecResult r = openCodeAgent().run(task("opencode-big", BIG));

        assertTrue(r.ok(), r.error());
        assertTrue(r.answer().startsWith("Marta Ilves"), "the answer comes from task.md, read through a tool: " + r.answer());
        assertTrue(largestPrompt(from) > 200 * 1024);
        assertTrue(r.trace().stream().anyMatch(s -> s.kind() == TraceStep.Kind.TOOL_CALL), r.trace().toString());
        assertTrue(r.usage().totalTokens() > 0);
        for (JsonNode c : requests(from)) {
            if (c.has("tools")) assertFalse(c.path("tools").toString().contains("edit") || c.path("tools").toString().contains("write"), c.toString());
        }

        int chatFrom = logged();
        ChatModel chat = OpenCodeChatModel.builder().binary(BIN.resolve("opencode").toString()).model("fake/fake-model").env(env).backoff(Backoff.NONE).build();
        assertFalse(chat.chat(ChatRequest.of("You are terse.", BIG)).text().isBlank());
        for (JsonNode c : requests(chatFrom)) {
            if (!"stray".equals(c.path("proto").asText()) && !"side_call".equals(c.path("label").asText())) assertEquals(0, c.path("n_tools").asInt(-1), c.toString());
        }
        assertFalse(Files.exists(home.resolve(".local/share/opencode/opencode.db")), "OPENCODE_DB=:memory:: no session database");
    }

    @Test void openCode401IsNonRetriable() throws Exception {
        control("401");
        BackendException e = assertThrows(BackendException.NonRetriable.class, () -> openCodeAgent().run(task("opencode-401", "Q")));
        assertTrue(e.getMessage().startsWith("opencode_exec: the model provider's API answered 401 (invalid API key)"), e.getMessage());
    }
}
