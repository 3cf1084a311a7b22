package io.skillopt4j.backend;

import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Hedged requests end to end through a model: a call whose first copy never answers is answered by its duplicate,
 * the duplicate is counted in the meter and charged in the cost ledger, and the cap bounds the extra calls.
 */
class HedgedRequestsTest {
    MockWebServer server;
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger slowSeen = new AtomicInteger(), requests = new AtomicInteger();

    @BeforeEach void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest r) throws InterruptedException {
                requests.incrementAndGet();
                String body = r.getBody().readUtf8();
                // the first copy of the "straggler" request hangs until the test ends; every other request is quick
                if (body.contains("straggler") && slowSeen.getAndIncrement() == 0) release.await(30, TimeUnit.SECONDS);
                else Thread.sleep(5);
                return new MockResponse().setHeader("Content-Type", "application/json").setBody(
                        "{\"choices\":[{\"message\":{\"content\":\"answer\"}}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2,\"total_tokens\":12}}");
            }
        });
        server.start();
    }

    @AfterEach void stop() throws IOException {
        release.countDown();
        server.shutdown();
    }

    @Test void theDuplicateOfAStragglerAnswersAndIsChargedOnItsOwnLine() {
        UsageMeter meter = new UsageMeter();
        OpenAiCompatibleChatModel raw = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m")
                .meter(meter).timeout(Duration.ofSeconds(60)).hedge(0.9, 0.5).build();
        CostLedger ledger = CostLedger.unbounded(PriceTable.empty());
        ChatModel m = new BudgetedChatModel(raw, "target", ledger);
        for (int i = 0; i < 20; i++) m.chat(ChatRequest.builder().user("quick " + i).stage("rollout").build());
        long before = raw.hedgedCalls(); // a quick call past its stage's p90 on a busy machine may be hedged too
        assertTrue(before <= 10, "at most half the calls: " + before);
        ChatResponse r = m.chat(ChatRequest.builder().user("straggler").stage("rollout").build());
        assertEquals("answer", r.text(), "answered by the duplicate while the first copy still hangs");
        assertEquals(1, release.getCount(), "the first copy never answered");
        assertEquals(2, slowSeen.get(), "the straggler was sent twice");
        assertEquals(before + 1, raw.hedgedCalls());
        assertEquals(1, r.billing().hedges());
        assertEquals(before + 1, meter.hedges().get("target/rollout").calls());
        assertEquals(21, meter.byRoleAndStage().get("target/rollout").calls(), "a hedged call is still one call in token_summary");
        List<CostLedger.Entry> hedges = ledger.entries().stream().filter(e -> e.stage().equals("rollout:hedge")).toList();
        assertEquals(before + 1, hedges.size());
        assertEquals(10, hedges.get(hedges.size() - 1).promptTokens(), "charged like the reply");
        // a duplicate cancelled before it was written never reaches the server
        assertTrue(requests.get() >= 22 && requests.get() <= 21 + before + 1, "requests " + requests.get());
    }

    @Test void theCapBoundsExtraCalls() {
        io.skillopt4j.backend.internal.Hedging h = new io.skillopt4j.backend.internal.Hedging(0.9, 0.05);
        assertThrows(IllegalArgumentException.class, () -> new io.skillopt4j.backend.internal.Hedging(1.0, 0.05));
        // the cap is a share of the calls made: 40 calls allow 2 duplicates
        UsageMeter meter = new UsageMeter();
        OpenAiCompatibleChatModel raw = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m")
                .meter(meter).timeout(Duration.ofSeconds(60)).hedge(0.5, 0.05).build();
        for (int i = 0; i < 40; i++) raw.chat(ChatRequest.builder().user("quick " + i).stage("rollout").build());
        assertTrue(raw.hedgedCalls() <= 2, "at most 5 % of 40 calls: " + raw.hedgedCalls());
        assertEquals(0, h.extraCalls());
    }

    @Test void aDuplicateNeedsAFreeSlotOfTheModel() throws Exception {
        // one slot, held by the straggler's first copy: no duplicate is sent, however long it runs
        OpenAiCompatibleChatModel raw = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m")
                .timeout(Duration.ofSeconds(60)).maxConcurrency(1).hedge(0.5, 1.0).build();
        for (int i = 0; i < 20; i++) raw.chat(ChatRequest.builder().user("quick " + i).stage("rollout").build());
        long before = raw.hedgedCalls();
        java.util.concurrent.CompletableFuture<ChatResponse> straggler = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> raw.chat(ChatRequest.builder().user("straggler").stage("rollout").build()));
        while (slowSeen.get() == 0) Thread.sleep(5);
        Thread.sleep(500); // many times the stage's median: a duplicate would have been sent by now
        assertEquals(1, slowSeen.get(), "no duplicate without a free slot");
        release.countDown();
        assertEquals("answer", straggler.get(30, TimeUnit.SECONDS).text(), "the first copy answers");
        assertEquals(before, raw.hedgedCalls());
    }

    @Test void aCallSentBeforeItsStageHadLatenciesIsHedgedOnceThereAreEnough() throws Exception {
        OpenAiCompatibleChatModel raw = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1").toString()).model("m")
                .timeout(Duration.ofSeconds(60)).hedge(0.9, 1.0).build();
        // the straggler goes first, when no latency is known yet
        java.util.concurrent.CompletableFuture<ChatResponse> straggler = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> raw.chat(ChatRequest.builder().user("straggler").stage("rollout").build()));
        while (slowSeen.get() == 0) Thread.sleep(5);
        for (int i = 0; i < 20; i++) raw.chat(ChatRequest.builder().user("quick " + i).stage("rollout").build());
        assertEquals("answer", straggler.get(30, TimeUnit.SECONDS).text(), "answered by the duplicate");
        assertEquals(1, release.getCount(), "the first copy never answered");
        assertEquals(2, slowSeen.get(), "the straggler was sent twice");
        assertTrue(raw.hedgedCalls() >= 1);
    }
}
