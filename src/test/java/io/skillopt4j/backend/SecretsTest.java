package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.config.FlatConfig;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class SecretsTest {
    static final String KEY = "sk-planted-SECRET-0123456789abcdef";
    @TempDir Path tmp;

    @Test void aPlantedKeyNeverReachesAFileAnErrorOrToString() throws Exception {
        List<String> texts = new ArrayList<>();
        try (MockWebServer server = new MockWebServer()) {
            // the provider echoes the key back in its error body, as some do
            server.enqueue(new MockResponse().setResponseCode(401).setBody("{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));
            server.enqueue(new MockResponse().setBody(OpenAiCompatibleChatModelTest.OK));
            FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "openai_compatible", "target_backend", "claude_code_exec",
                    "response_cache", "read_write", "response_cache_dir", tmp.resolve("cache").toString(),
                    "openai_compatible_api_key", KEY, "retry_backoff_base_ms", 0));
            FakeCli claude = FakeCli.install(tmp, "claude").file("reply",
                    FakeCli.resource("claude_stream.jsonl").replace("café", "café " + KEY)).file("stderr", "warning: token " + KEY + "\n");
            Map<String, String> env = FakeCli.env(Map.of("OPENAI_COMPATIBLE_BASE_URL", server.url("/v1").toString(),
                    "CLAUDE_CODE_EXEC_PATH", claude.path(), "ANTHROPIC_API_KEY", KEY));

            ModelRoles roles = Backends.roles(cfg, env);
            BackendException e = assertThrows(BackendException.class, () -> roles.optimizer().chat("x"));
            texts.add(e.getMessage());
            roles.optimizer().chat("y");
            ExecResult r = roles.targetAgent().orElseThrow().run(new ExecTask("i1", "Q", "skill", tmp.resolve("pred/i1/codex_exec"),
                    tmp.resolve("pred/i1"), Duration.ofSeconds(20), null));
            assertTrue(r.ok(), r.error());
            texts.add(roles.toString());
            texts.add(roles.optimizer().toString());
            texts.add(cfg.toString());
        }
        try (Stream<Path> files = Files.walk(tmp)) {
            for (Path p : files.filter(Files::isRegularFile).filter(p -> !p.startsWith(tmp.resolve("fake-claude"))).toList()) {
                texts.add(p + ": " + Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        assertTrue(texts.size() > 6);
        for (String t : texts) assertFalse(t.contains(KEY), "secret leaked in: " + t);
    }
}
