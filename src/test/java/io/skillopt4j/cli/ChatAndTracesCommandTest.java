package io.skillopt4j.cli;

import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.skillopt4j.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.*;

class ChatAndTracesCommandTest {
    @TempDir Path tmp;

    @Test void chatSendsOneCallThroughTheConfiguredRoleAndPrintsReplyAndUsage() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse().setBody("{\"model\":\"sim-1\",\"choices\":[{\"message\":{\"content\":\"pong\"}}],"
                    + "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":1,\"total_tokens\":5}}"));
            Path cfg = tmp.resolve("c.yaml");
            Files.writeString(cfg, "model:\n  target_backend: openai_compatible\n  target: sim-1\n");

            CliRun r = run("chat", "--config", cfg.toString(), "--role", "target", "--prompt", "ping", "--base-url", server.url("/v1").toString());

            assertEquals(0, r.code(), r.err());
            assertEquals("pong\nusage: backend=openai_compatible model=sim-1 prompt=4 completion=1 total=5 cached=0 latency_ms=",
                    r.out().substring(0, r.out().lastIndexOf('=') + 1));
            RecordedRequest req = server.takeRequest();
            assertEquals("/v1/chat/completions", req.getPath());
            assertTrue(req.getBody().readUtf8().contains("\"model\": \"sim-1\""));
        }
    }

    @Test void chatRejectsABadRoleAndUnknownBackendWithExit2() {
        CliRun bad = run("chat", "--role", "judge", "--prompt", "x");
        assertEquals(2, bad.code());
        assertEquals("error: --role must be optimizer or target, got \"judge\"\n", bad.err());
        CliRun unknown = run("chat", "--optimizer_backend", "gemini", "--prompt", "x");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("optimizer_backend must be one of") && unknown.err().contains("\"gemini\""), unknown.err());
    }

    @Test void tracesShowPrintsStepsWithKindToolCharsAndTruncation() throws Exception {
        Path f = tmp.resolve("claude_raw.txt");
        try (InputStream in = getClass().getResourceAsStream("/fakecli/replays/claude_stream.jsonl")) {
            Files.write(f, in.readAllBytes());
        }

        CliRun r = run("traces", "show", f.toString());

        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals("   #  kind         tool             chars  truncated  text", lines[0]);
        assertEquals("   3  tool_result  Read               600  yes        line of output line of output line of output line of output…", lines[3]);
        assertEquals("6 steps · format claude · terminal yes · final 32 chars · 2 lines skipped", lines[lines.length - 1]);
        assertEquals(2, run("traces", "show", tmp.resolve("nope.jsonl").toString()).code());
        assertEquals(2, run("traces", "show", f.toString(), "--format", "gemini").code());
    }
}
