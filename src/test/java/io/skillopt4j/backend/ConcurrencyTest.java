package io.skillopt4j.backend;

import io.skillopt4j.config.FlatConfig;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

class ConcurrencyTest {
    @TempDir Path tmp;

    @Test void oneModelIsSharedByManyThreadsAndBoundsConcurrentCallsPerRole() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
                    peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    Thread.sleep(40);
                    inFlight.decrementAndGet();
                    return new MockResponse().setBody(OpenAiCompatibleChatModelTest.OK);
                }
            });
            UsageMeter meter = new UsageMeter();
            ChatModel m = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m").maxConcurrency(2)
                    .meter(meter).backoff(Backoff.NONE).build();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Future<String>> fs = new ArrayList<>();
            for (int i = 0; i < 12; i++) fs.add(pool.submit(() -> m.chat("x")));
            for (Future<String> f : fs) assertEquals("hello", f.get());
            pool.shutdown();

            assertEquals(2, peak.get());
            assertEquals(12, meter.byStage().get("chat").calls());
            assertEquals(12 * 15, meter.byStage().get("chat").totalTokens());
        }
    }

    /** The backend behind the cost-ledger decorator Backends.roles puts around each role. */
    private static AbstractChatModel raw(ChatModel m) { return (AbstractChatModel) ((BudgetedChatModel) m).delegate(); }

    @Test void optimizerCallsRunAtAnalystWorkersAndMaxApiWorkersOnlyCapsAlfworldTargets() {
        Map<String, String> env = Map.of("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:9/v1", "OPENAI_COMPATIBLE_API_KEY", "k");
        FlatConfig cfg = FlatConfig.of(Map.of("model_backend", "openai_compatible", "optimizer_backend", "openai_compatible",
                "target_backend", "openai_compatible", "analyst_workers", 24, "max_api_workers", 3, "workers", 5));
        ModelRoles roles = Backends.roles(cfg, env);
        assertEquals(24, raw(roles.optimizer()).maxConcurrency(), "upstream: analyst/merge pools of analyst_workers");
        assertEquals(5, raw(roles.target()).maxConcurrency());
        ModelRoles defaults = Backends.roles(FlatConfig.of(Map.of("model_backend", "openai_compatible", "optimizer_backend", "openai_compatible",
                "target_backend", "openai_compatible")), env);
        assertEquals(16, raw(defaults.optimizer()).maxConcurrency(), "analyst_workers defaults to 16");
        ModelRoles alf = Backends.roles(cfg.with("env", "alfworld"), env);
        assertEquals(3, raw(alf.target()).maxConcurrency(), "ALFWorld's concurrent target calls");
    }

    @Test void resolvedQwenThinkingModesAreReportedOnlyWhenARoleUsesQwen() {
        Map<String, String> env = Map.of("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:9/v1", "OPENAI_COMPATIBLE_API_KEY", "k",
                "TARGET_QWEN_CHAT_ENABLE_THINKING", "true");
        FlatConfig cfg = FlatConfig.of(Map.of("model_backend", "openai_compatible", "optimizer_backend", "qwen_chat",
                "target_backend", "openai_compatible", "optimizer_qwen_chat_thinking_mode", "disabled"));
        ModelRoles roles = Backends.roles(cfg, env);
        assertEquals(Optional.of(Map.of("optimizer", "disabled", "target", "enabled")), Backends.qwenThinkingModes(cfg, roles, env));
        FlatConfig plain = FlatConfig.of(Map.of("model_backend", "openai_compatible", "optimizer_backend", "openai_compatible",
                "target_backend", "openai_compatible"));
        assertEquals(Optional.empty(), Backends.qwenThinkingModes(plain, Backends.roles(plain, env), env));
    }

    @Test void cursorTargetIsAlsoUsableAsAChatModel() {
        FakeCli cli = FakeCli.install(tmp, "cursor-agent").replay("cursor_stream.jsonl");
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "openai_compatible", "target_backend", "cursor_exec", "cursor_exec_path", cli.path(),
                "openai_compatible_base_url", "http://127.0.0.1:9/v1"));

        ModelRoles roles = Backends.roles(cfg, FakeCli.env(Map.of()));

        assertEquals("cursor_exec", roles.targetAgent().orElseThrow().backend());
        assertEquals("composer-2.5", roles.target().model());
        assertEquals("<answer>D</answer>", roles.target().chat("Which letter?"));
        assertEquals(1, roles.usage().byRoleAndStage().get("target/chat").calls());
        assertTrue(cli.stdin(1).contains("History:\n- User: Which letter?"));
    }
}
