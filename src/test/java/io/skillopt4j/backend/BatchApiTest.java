package io.skillopt4j.backend;

import io.skillopt4j.internal.Json;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The Batch API wire formats against a real HTTP server on loopback: OpenAI's Files + Batches API and Anthropic's
 * Message Batches, a batch that partially fails, one that expires, and a re-run that re-attaches to a recorded batch.
 */
class BatchApiTest {
    private static final Duration POLL = Duration.ofMillis(20);
    private static final PriceTable PRICES = PriceTable.of(Map.of("m", Map.of("prompt", 1.0, "completion", 2.0, "batch", 0.5)), "test");
    private MockWebServer server;
    private final List<String> log = new CopyOnWriteArrayList<>();
    @TempDir Path dir;

    @BeforeEach void start() throws Exception { server = new MockWebServer(); server.start(); }

    @AfterEach void stop() throws Exception { server.shutdown(); }

    private void serve(Function<RecordedRequest, MockResponse> f) {
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest r) {
                log.add(r.getMethod() + " " + r.getPath());
                return f.apply(r);
            }
        });
    }

    private static MockResponse json(Object o) { return new MockResponse().setHeader("Content-Type", "application/json").setBody(Json.compact(o)); }

    private static Map<String, Object> completion(String text) {
        return Map.of("choices", List.of(Map.of("message", Map.of("role", "assistant", "content", text), "finish_reason", "stop")),
                "usage", Map.of("prompt_tokens", 100, "completion_tokens", 10, "total_tokens", 110), "model", "m");
    }

    /** Sends each prompt from its own thread inside one batch scope and returns the replies in order. */
    private static List<String> askAll(ChatModel m, Path dir, List<String> prompts) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(prompts.size());
        try {
            return BatchScope.run(dir, POLL, () -> {
                List<Future<String>> fs = new ArrayList<>();
                for (String p : prompts) fs.add(pool.submit(() -> m.chat(ChatRequest.builder().system("sys").user(p).stage("rollout").build()).text()));
                List<String> out = new ArrayList<>();
                for (Future<String> f : fs) {
                    try { out.add(f.get()); } catch (Exception e) { throw new IllegalStateException(e); }
                }
                return out;
            });
        } finally {
            pool.shutdownNow();
        }
    }

    private ChatModel openAi(CostLedger ledger) {
        return new BudgetedChatModel(OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m").apiKey("sk-test")
                .backoff(Backoff.NONE).build(), "target", ledger);
    }

    /** Custom id → user prompt of an uploaded batch file (multipart body, JSONL part). */
    private static Map<String, String> uploadedLines(String multipart) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : multipart.split("\n")) {
            if (!line.startsWith("{\"custom_id\"")) continue;
            Map<String, Object> l = Json.parseObject(line.strip());
            assertEquals("POST", l.get("method"));
            assertEquals("/v1/chat/completions", l.get("url"));
            @SuppressWarnings("unchecked") Map<String, Object> body = (Map<String, Object>) l.get("body");
            assertEquals("m", body.get("model"));
            @SuppressWarnings("unchecked") List<Map<String, Object>> msgs = (List<Map<String, Object>>) body.get("messages");
            out.put((String) l.get("custom_id"), (String) msgs.get(msgs.size() - 1).get("content"));
        }
        return out;
    }

    /** An OpenAI batch server: {@code outcome(prompt)} is "ok", "error" or "expired" per request; final status given. */
    private void openAiServer(String finalStatus, Function<String, String> outcome, CountDownLatch release) {
        Map<String, String> ids = Collections.synchronizedMap(new LinkedHashMap<>());
        serve(r -> {
            String path = r.getPath();
            String body = r.getBody().readUtf8();
            if (path.equals("/v1/files") && r.getMethod().equals("POST")) {
                assertTrue(r.getHeader("Content-Type").startsWith("multipart/form-data"), r.getHeader("Content-Type"));
                assertTrue(body.contains("name=\"purpose\"") && body.contains("batch"), body);
                assertEquals("Bearer sk-test", r.getHeader("Authorization"));
                ids.putAll(uploadedLines(body));
                return json(Map.of("id", "file-in", "object", "file", "purpose", "batch"));
            }
            if (path.equals("/v1/batches")) {
                Map<String, Object> b = Json.parseObject(body);
                assertEquals("file-in", b.get("input_file_id"));
                assertEquals("/v1/chat/completions", b.get("endpoint"));
                assertEquals("24h", b.get("completion_window"));
                return json(Map.of("id", "batch_1", "object", "batch", "status", "validating"));
            }
            if (path.equals("/v1/batches/batch_1")) {
                if (release.getCount() > 0) return json(Map.of("id", "batch_1", "status", "in_progress"));
                Map<String, Object> b = new LinkedHashMap<>(Map.of("id", "batch_1", "status", finalStatus, "output_file_id", "file-out"));
                b.put("error_file_id", "file-err");
                return json(b);
            }
            if (path.equals("/v1/files/file-out/content") || path.equals("/v1/files/file-err/content")) {
                boolean out = path.contains("file-out");
                StringBuilder jsonl = new StringBuilder();
                ids.forEach((id, prompt) -> {
                    String o = outcome.apply(prompt);
                    if (out && o.equals("ok")) jsonl.append(Json.compact(Map.of("id", "br_" + id, "custom_id", id,
                            "response", Map.of("status_code", 200, "body", completion("batched " + prompt))))).append('\n');
                    if (!out && !o.equals("ok")) {
                        Map<String, Object> line = new LinkedHashMap<>();
                        line.put("id", "br_" + id);
                        line.put("custom_id", id);
                        line.put("response", o.equals("error") ? Map.of("status_code", 500, "body", Map.of("error", Map.of("message", "boom"))) : null);
                        line.put("error", o.equals("expired") ? Map.of("code", "batch_expired", "message", "This request could not be executed before the completion window expired.") : null);
                        jsonl.append(Json.compact(line)).append('\n');
                    }
                });
                return new MockResponse().setBody(jsonl.toString());
            }
            if (path.equals("/v1/chat/completions")) {
                @SuppressWarnings("unchecked") List<Map<String, Object>> msgs = (List<Map<String, Object>>) Json.parseObject(body).get("messages");
                return json(completion("direct " + msgs.get(msgs.size() - 1).get("content")));
            }
            return new MockResponse().setResponseCode(404);
        });
    }

    @Test void openAiBatchThatPartiallyFailsRetriesTheFailedRequestDirectlyAndPricesTheRestAtTheBatchRate() throws Exception {
        CountDownLatch done = new CountDownLatch(0);
        openAiServer("completed", p -> p.equals("q2") ? "error" : "ok", done);
        CostLedger ledger = CostLedger.unbounded(PRICES);
        List<String> replies = askAll(openAi(ledger), dir, List.of("q1", "q2", "q3"));

        assertEquals(List.of("batched q1", "direct q2", "batched q3"), replies);
        assertEquals(1, log.stream().filter(l -> l.equals("POST /v1/files")).count(), log.toString());
        assertEquals(1, log.stream().filter(l -> l.equals("POST /v1/chat/completions")).count(), "only the failed request goes direct");
        List<CostLedger.Entry> es = ledger.entries();
        assertEquals(2, es.stream().filter(CostLedger.Entry::batch).count());
        double direct = (100 * 1.0 + 10 * 2.0) / 1e6;
        assertEquals(direct * 0.5 * 2 + direct, ledger.spent(), 1e-12, "batch discount in the ledger");
        Map<String, Object> state = Json.parseObject(Files.readString(dir.resolve("batch_api.json")));
        @SuppressWarnings("unchecked") Map<String, Object> b = ((List<Map<String, Object>>) state.get("batches")).get(0);
        assertEquals("batch_1", b.get("id"));
        assertEquals("openai", b.get("provider"));
        assertEquals("completed", b.get("status"));
        assertEquals(3, ((List<?>) b.get("custom_ids")).size());
    }

    @Test void anExpiredOpenAiBatchKeepsWhatFinishedAndMakesTheRestAsNormalCalls() throws Exception {
        openAiServer("expired", p -> p.equals("q1") ? "ok" : "expired", new CountDownLatch(0));
        List<String> replies = askAll(openAi(CostLedger.unbounded(PRICES)), dir, List.of("q1", "q2", "q3"));
        assertEquals(List.of("batched q1", "direct q2", "direct q3"), replies);
    }

    @Test void aReRunReAttachesToTheBatchInFlightInsteadOfSubmittingAgain() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        openAiServer("completed", p -> "ok", release);
        ExecutorService first = Executors.newSingleThreadExecutor();
        Future<List<String>> before = first.submit(() -> askAll(openAi(CostLedger.unbounded(PRICES)), dir, List.of("q1", "q2")));
        Path state = dir.resolve("batch_api.json");
        while (!Files.exists(state)) Thread.sleep(10);
        // a second session (fresh model, e.g. after a crash) asks the same questions: it polls batch_1, uploads nothing
        ExecutorService second = Executors.newSingleThreadExecutor();
        Future<List<String>> after = second.submit(() -> askAll(openAi(CostLedger.unbounded(PRICES)), dir, List.of("q1", "q2")));
        while (log.stream().filter(l -> l.equals("GET /v1/batches/batch_1")).count() < 4) Thread.sleep(10);
        release.countDown();
        assertEquals(List.of("batched q1", "batched q2"), before.get());
        assertEquals(List.of("batched q1", "batched q2"), after.get());
        assertEquals(1, log.stream().filter(l -> l.equals("POST /v1/files")).count(), log.toString());
        assertEquals(1, log.stream().filter(l -> l.equals("POST /v1/batches")).count(), log.toString());
        first.shutdownNow();
        second.shutdownNow();
    }

    @Test void anthropicMessageBatchesWithErroredAndExpiredResultsFallBackToDirectCalls() throws Exception {
        Map<String, String> ids = Collections.synchronizedMap(new LinkedHashMap<>());
        String base = server.url("").toString().replaceAll("/$", "");
        serve(r -> {
            String path = r.getPath();
            String body = r.getBody().readUtf8();
            assertEquals("sk-ant", r.getHeader("x-api-key"));
            assertEquals("2023-06-01", r.getHeader("anthropic-version"));
            if (path.equals("/v1/messages/batches") && r.getMethod().equals("POST")) {
                @SuppressWarnings("unchecked") List<Map<String, Object>> reqs = (List<Map<String, Object>>) Json.parseObject(body).get("requests");
                for (Map<String, Object> q : reqs) {
                    String id = (String) q.get("custom_id");
                    assertTrue(id.matches("[a-zA-Z0-9_-]{1,64}"), id);
                    @SuppressWarnings("unchecked") Map<String, Object> params = (Map<String, Object>) q.get("params");
                    assertEquals("m", params.get("model"));
                    @SuppressWarnings("unchecked") List<Map<String, Object>> sys = (List<Map<String, Object>>) params.get("system");
                    assertEquals(Map.of("type", "ephemeral"), sys.get(0).get("cache_control"), "the stable prefix is a cache breakpoint");
                    @SuppressWarnings("unchecked") List<Map<String, Object>> msgs = (List<Map<String, Object>>) params.get("messages");
                    @SuppressWarnings("unchecked") List<Map<String, Object>> blocks = (List<Map<String, Object>>) msgs.get(0).get("content");
                    ids.put(id, (String) blocks.get(0).get("text"));
                }
                return json(Map.of("id", "msgbatch_1", "type", "message_batch", "processing_status", "in_progress"));
            }
            if (path.equals("/v1/messages/batches/msgbatch_1")) {
                return json(Map.of("id", "msgbatch_1", "type", "message_batch", "processing_status", "ended",
                        "results_url", base + "/v1/messages/batches/msgbatch_1/results"));
            }
            if (path.equals("/v1/messages/batches/msgbatch_1/results")) {
                StringBuilder jsonl = new StringBuilder();
                ids.forEach((id, prompt) -> {
                    Map<String, Object> result = switch (prompt) {
                        case "q1" -> Map.of("type", "succeeded", "message", Map.of("content", List.of(Map.of("type", "text", "text", "batched q1")),
                                "usage", Map.of("input_tokens", 80, "cache_read_input_tokens", 20, "output_tokens", 10), "model", "m"));
                        case "q2" -> Map.of("type", "errored", "error", Map.of("type", "error", "error", Map.of("type", "overloaded_error", "message", "busy")));
                        default -> Map.of("type", "expired");
                    };
                    jsonl.append(Json.compact(Map.of("custom_id", id, "result", result))).append('\n');
                });
                return new MockResponse().setBody(jsonl.toString());
            }
            if (path.equals("/v1/messages")) {
                @SuppressWarnings("unchecked") List<Map<String, Object>> msgs = (List<Map<String, Object>>) Json.parseObject(body).get("messages");
                @SuppressWarnings("unchecked") List<Map<String, Object>> blocks = (List<Map<String, Object>>) msgs.get(0).get("content");
                return json(Map.of("content", List.of(Map.of("type", "text", "text", "direct " + blocks.get(0).get("text"))),
                        "usage", Map.of("input_tokens", 100, "output_tokens", 10), "model", "m"));
            }
            return new MockResponse().setResponseCode(404);
        });
        CostLedger ledger = CostLedger.unbounded(PRICES);
        ChatModel m = new BudgetedChatModel(AnthropicChatModel.builder().baseUrl(base).apiKey("sk-ant").model("m").promptCache("on")
                .backoff(Backoff.NONE).build(), "target", ledger);
        assertEquals(List.of("batched q1", "direct q2", "direct q3"), askAll(m, dir, List.of("q1", "q2", "q3")));
        CostLedger.Entry batched = ledger.entries().stream().filter(CostLedger.Entry::batch).findFirst().orElseThrow();
        assertEquals(100, batched.promptTokens());
        assertEquals(20, batched.cachedTokens(), "cache_read_input_tokens read from the batch result's usage");
        assertEquals(2, log.stream().filter(l -> l.equals("POST /v1/messages")).count(), log.toString());
        assertTrue(Files.readString(dir.resolve("batch_api.json")).contains("\"anthropic\""));
    }

    @Test void outsideABatchScopeCallsAreDirect() {
        serve(r -> json(completion("direct")));
        assertEquals("direct", openAi(CostLedger.unbounded(PRICES)).chat("hi"));
        assertEquals(List.of("POST /v1/chat/completions"), log);
    }
}
