package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseRulesBenchmark;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.*;

/** The wire protocol as a raw HTTP client sees it. */
class SimServerTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static String body(String system, String user) {
        return Json.compact(Map.of("model", "sim-model", "max_tokens", 4000, "messages",
                List.of(Map.of("role", "system", "content", system), Map.of("role", "user", "content", user))));
    }

    static HttpResponse<String> post(SimServer s, String body, Duration timeout) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.url() + "/chat/completions"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer dummy")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        b.timeout(timeout != null ? timeout : Duration.ofSeconds(20));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test void answersChatCompletionsWithOpenAiShapeAndRealisticUsage() throws Exception {
        try (SimServer s = SimServer.builder().seed(3).start()) {
            assertTrue(s.url().matches("http://127\\.0\\.0\\.1:\\d+/v1"));
            String q = Prompts.question(HouseCategory.DATE, 1);
            String system = HouseRulesBenchmark.systemPrompt(Prompts.SKILL);
            HttpResponse<String> r = post(s, body(system, q), null);
            assertEquals(200, r.statusCode());
            Map<String, Object> m = Json.parseObject(r.body());
            assertEquals("chat.completion", m.get("object"));
            assertEquals("sim-model", m.get("model"));
            @SuppressWarnings("unchecked") Map<String, Object> choice = ((List<Map<String, Object>>) m.get("choices")).get(0);
            assertEquals("stop", choice.get("finish_reason"));
            String content = (String) ((Map<?, ?>) choice.get("message")).get("content");
            assertTrue(content.contains("<answer>"), content);
            Map<?, ?> usage = (Map<?, ?>) m.get("usage");
            int prompt = ((Number) usage.get("prompt_tokens")).intValue();
            int expected = (system.length() + q.length()) / 4;
            assertTrue(prompt >= expected && prompt <= expected + 10, "prompt tokens " + prompt + " vs ~" + expected);
            assertEquals(prompt + ((Number) usage.get("completion_tokens")).intValue(), ((Number) usage.get("total_tokens")).intValue());
            assertEquals(1, s.requestsByStage().get("target"));
        }
    }

    @Test void listsModelsAndRejectsBadRequestsWithJsonErrors() throws Exception {
        try (SimServer s = SimServer.builder().modelName("my-sim").start()) {
            HttpResponse<String> models = HTTP.send(HttpRequest.newBuilder(URI.create(s.url() + "/models")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, models.statusCode());
            assertTrue(models.body().contains("\"id\":\"my-sim\""), models.body());
            HttpResponse<String> bad = post(s, "{not json", null);
            assertEquals(400, bad.statusCode());
            assertTrue(bad.body().contains("invalid_request_error"));
            assertEquals(400, post(s, "{\"messages\": []}", null).statusCode());
            HttpResponse<String> none = HTTP.send(HttpRequest.newBuilder(URI.create(s.url() + "/embeddings")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, none.statusCode());
        }
    }

    @Test void truncatesRepliesLongerThanMaxTokens() throws Exception {
        try (SimServer s = SimServer.builder().start()) {
            String b = Json.compact(Map.of("max_tokens", 5, "messages", List.of(Map.of("role", "user", "content", Prompts.errorAnalyst(Prompts.SKILL, 3, List.of(HouseCategory.DATE))))));
            Map<String, Object> m = Json.parseObject(post(s, b, null).body());
            @SuppressWarnings("unchecked") Map<String, Object> choice = ((List<Map<String, Object>>) m.get("choices")).get(0);
            assertEquals("length", choice.get("finish_reason"));
            assertEquals(20, ((String) ((Map<?, ?>) choice.get("message")).get("content")).length());
        }
    }

    @Test void injects429WithRetryAfterAnd500() throws Exception {
        try (SimServer s = SimServer.builder().faults(Faults.none().with429(1.0).withRetryAfter(2)).start()) {
            HttpResponse<String> r = post(s, body("s", "hi"), null);
            assertEquals(429, r.statusCode());
            assertEquals("2", r.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(r.body().contains("rate_limit_exceeded"));
        }
        try (SimServer s = SimServer.builder().faults(Faults.none().with500(1.0)).start()) {
            assertEquals(500, post(s, body("s", "hi"), null).statusCode());
            assertEquals(1L, s.faultsInjected().get(Faults.Kind.SERVER_ERROR));
        }
    }

    @Test void injectsMalformedAndTruncatedBodies() throws Exception {
        try (SimServer s = SimServer.builder().faults(Faults.none().withMalformed(1.0)).start()) {
            HttpResponse<String> r = post(s, body("s", "hi"), null);
            assertEquals(200, r.statusCode());
            assertThrows(RuntimeException.class, () -> Json.parseObject(r.body()));
        }
        try (SimServer s = SimServer.builder().faults(Faults.none().withTruncated(1.0)).start()) {
            assertThrows(IOException.class, () -> post(s, body("s", "hi"), null));
        }
    }

    @Test void timeoutFaultHoldsTheConnectionPastTheClientTimeout() throws Exception {
        try (SimServer s = SimServer.builder().faults(Faults.none().withTimeouts(1.0, Duration.ofSeconds(5))).start()) {
            long t0 = System.nanoTime();
            assertThrows(HttpTimeoutException.class, () -> post(s, body("s", "hi"), Duration.ofMillis(200)));
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 3000);
        }
    }

    @Test void faultsRepeatPerAttemptSoRetriesEventuallySucceed() throws Exception {
        Faults f = Faults.none().with500(0.5);
        List<Integer> a = new ArrayList<>(), b = new ArrayList<>();
        for (List<Integer> statuses : List.of(a, b))
            try (SimServer s = SimServer.builder().seed(5).faults(f).start()) {
                for (int i = 0; i < 12; i++) statuses.add(post(s, body("s", "same request"), null).statusCode());
            }
        assertEquals(a, b);
        assertTrue(a.contains(200) && a.contains(500), a.toString());
    }

    @Test void latencyIsAppliedAndSeeded() throws Exception {
        try (SimServer s = SimServer.builder().latency(Latency.parse("60")).start()) {
            long t0 = System.nanoTime();
            post(s, body("s", "hi"), null);
            assertTrue((System.nanoTime() - t0) / 1_000_000 >= 60);
        }
        java.util.SplittableRandom r1 = SimText.rng(1, "latency#0", "x"), r2 = SimText.rng(1, "latency#0", "x");
        Latency ln = Latency.parse("lognormal:50:0.5");
        assertEquals(ln.sampleMillis(r1), ln.sampleMillis(r2));
        assertEquals(new Latency.Uniform(20, 80), Latency.parse("20-80"));
        assertThrows(IllegalArgumentException.class, () -> Latency.parse("fast"));
    }

    @Test void repliesAreIdenticalAtAnyConcurrency() throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            HouseCategory c = HouseCategory.values()[i % 10];
            bodies.add(body(HouseRulesBenchmark.systemPrompt(Prompts.SKILL), Prompts.question(c, i)));
        }
        List<String> serial = new ArrayList<>();
        try (SimServer s = SimServer.builder().seed(9).start()) {
            for (String b : bodies) serial.add(post(s, b, null).body());
        }
        List<String> parallel = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try (SimServer s = SimServer.builder().seed(9).latency(Latency.parse("0-5")).start()) {
            List<Future<String>> fs = new ArrayList<>();
            for (String b : bodies) fs.add(pool.submit(() -> post(s, b, null).body()));
            for (Future<String> f : fs) parallel.add(f.get());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(serial, parallel);
    }
}
