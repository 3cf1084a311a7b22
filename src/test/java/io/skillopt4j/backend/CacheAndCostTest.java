package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class CacheAndCostTest {
    @TempDir Path tmp;

    @Test void readWriteCacheServesRepeatsFromDiskAndReplayFailsOnAMiss() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse().setBody(OpenAiCompatibleChatModelTest.OK));
            UsageMeter meter = new UsageMeter();
            ChatModel rw = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m").apiKey("sk-cache-planted-key-1")
                    .cache(ResponseCache.of(ResponseCache.Mode.READ_WRITE, tmp)).meter(meter).backoff(Backoff.NONE).build();

            ChatResponse first = rw.chat(ChatRequest.of("s", "u"));
            ChatResponse second = rw.chat(ChatRequest.of("s", "u"));

            assertEquals(1, server.getRequestCount());
            assertEquals(first.text(), second.text());
            assertEquals(first.usage(), second.usage());
            assertEquals(2, meter.byStage().get("target").calls());
            try (Stream<Path> files = Files.walk(tmp)) {
                Path f = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
                assertEquals(64 + 5, f.getFileName().toString().length());
                assertFalse(Files.readString(f).contains("sk-cache-planted"));
            }
            ChatModel replay = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m")
                    .cache(ResponseCache.of(ResponseCache.Mode.REPLAY, tmp)).backoff(Backoff.NONE).build();
            assertEquals("hello", replay.chat(ChatRequest.of("s", "u")).text());
            BackendException miss = assertThrows(BackendException.NonRetriable.class, () -> replay.chat(ChatRequest.of("s", "different")));
            assertTrue(miss.getMessage().contains("response_cache=replay has no stored reply"), miss.getMessage());
            assertEquals(1, server.getRequestCount());
        }
        assertThrows(ConfigException.class, () -> ResponseCache.from(FlatConfig.of(Map.of("response_cache", "sometimes")), tmp));
    }

    /** Map.of's order changes between JVMs: a key that followed it would miss in a replay run by another process. */
    @Test void aCacheKeyDoesNotDependOnTheOrderOfAMapsEntries() {
        ResponseCache c = ResponseCache.of(ResponseCache.Mode.READ_WRITE, tmp);
        java.util.LinkedHashMap<String, Object> ab = new java.util.LinkedHashMap<>(), ba = new java.util.LinkedHashMap<>();
        ab.put("url", "http://x"); ab.put("thinking", "off");
        ba.put("thinking", "off"); ba.put("url", "http://x");
        ChatRequest r = ChatRequest.of("s", "u");
        assertEquals(c.key("qwen", "m", ab, r), c.key("qwen", "m", ba, r));
        assertNotEquals(c.key("qwen", "m", ab, r), c.key("qwen", "m", Map.of("url", "http://y", "thinking", "off"), r));
    }

    @Test void priceTablePricesUsageByModelIncludingCachedTokens() throws Exception {
        Path f = tmp.resolve("prices.yaml");
        Files.writeString(f, "gpt-4o: {prompt: 2.5, completion: 10, cached: 1.25}\nclaude-sonnet-4-6: {input: 3, output: 15}\n");
        FlatConfig cfg = FlatConfig.of(Map.of("price_table", f.toString()));
        PriceTable t = PriceTable.from(cfg);
        UsageMeter meter = new UsageMeter();
        meter.record("optimizer", "analyst", "gpt-4o-2024-08-06", new Usage(1_000_000, 100_000, 1_100_000, 400_000), null);
        meter.record("target", "rollout", "claude-sonnet-4-6", Usage.of(1000, 1000), null);
        meter.record("target", "rollout", "unpriced-model", Usage.of(5, 5), null);

        Map<String, Double> costs = t.costs(meter);

        assertEquals(0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10, costs.get("optimizer/analyst"), 1e-9);
        assertEquals((1000 * 3 + 1000 * 15) / 1e6, costs.get("target/rollout"), 1e-12);
        assertEquals(costs.get("optimizer/analyst") + costs.get("target/rollout"), costs.get("_total"), 1e-12);
        assertEquals(3, meter.stageSummary().size());
        Files.writeString(f, "gpt-4o: {prompt: cheap, completion: 1}\n");
        ConfigException e = assertThrows(ConfigException.class, () -> PriceTable.from(cfg));
        assertTrue(e.getMessage().contains("gpt-4o.prompt"), e.getMessage());
    }
}
