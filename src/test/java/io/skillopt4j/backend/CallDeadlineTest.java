package io.skillopt4j.backend;

import io.skillopt4j.BackendException;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A provider that hangs must fail the call before the rollout item's wall limit, so the item is errored (attempted again
 * on resume), not a scored timeout row: the HTTP retry loop and the chat model's own retries end by the item's
 * deadline (a retry is cut to what is left, none is made with less than a second left). Before, five attempts of a 2 s timeout ran into a 4 s wall limit and the item was
 * scored 0. A call that is slow but answers keeps upstream's rule: past the wall limit the item is a timeout row.
 */
class CallDeadlineTest {
    @TempDir Path tmp;
    MockWebServer server;
    final AtomicInteger requests = new AtomicInteger();

    @BeforeEach void hangingProvider() throws Exception {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest r) {
                requests.incrementAndGet();
                return new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE); // reads the request, never answers
            }
        });
        server.start();
    }

    @AfterEach void stop() throws Exception { server.shutdown(); }

    private ChatModel model() {
        return OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1/").toString()).model("m").apiKey("k")
                .backoff(Backoff.NONE).build();
    }

    private static ChatRequest request() {
        return ChatRequest.builder().user("q").stage("rollout").timeout(Duration.ofSeconds(2)).retries(5).build();
    }

    @Test void anHttpCallGivesUpAtTheDeadlineInsteadOfUsingEveryAttempt() {
        ChatModel m = model();
        long t0 = System.nanoTime();
        BackendException e = assertThrows(BackendException.class, () -> CallDeadline.in(Duration.ofSeconds(3)).run(() -> m.chat(request())));
        double secs = (System.nanoTime() - t0) / 1e9;
        assertTrue(secs < 4.5, "gave up by the deadline, took " + secs + " s");
        assertEquals(1, requests.get(), "no attempt that could not end in time");
        assertTrue(e instanceof BackendException.Retriable, e.toString());
    }

    @Test void withoutADeadlineTheAttemptsAreAllMade() {
        ChatModel m = model();
        ChatRequest twoAttempts = request().toBuilder().timeout(Duration.ofMillis(300)).retries(2).build();
        assertThrows(BackendException.class, () -> m.chat(twoAttempts));
        assertEquals(2, requests.get());
    }

    @Test void aRolloutItemWhoseProviderHangsIsErroredNotAScoredTimeout() throws Exception {
        ChatModel m = model();
        List<Item> items = List.of(new Item("i0", Map.of()));
        RolloutRunner runner = RolloutRunner.builder().workers(1).itemTimeout(Duration.ofSeconds(4)).abortWhenAllFail(false).build();
        List<RolloutResult> rows = runner.run(new RolloutRequest(new BatchSpec("eval", "val", 1, items), "skill", tmp, false), (item, ctx) -> {
            ChatResponse r = m.chat(request());
            return RolloutRunner.Outcome.of(new RolloutResult(item.id(), 1, 1, Map.of("agent_ok", true, "answer", r.text())), List.of());
        });
        assertTrue(rows.get(0).isErrored(), rows.get(0).fields().toString());
        assertFalse(Files.exists(tmp.resolve("results.jsonl")) && !Files.readString(tmp.resolve("results.jsonl")).isBlank(),
                "no timeout row stored as finished");
        assertEquals(1, Files.readAllLines(tmp.resolve(RolloutRunner.ERRORED_FILE)).size());
    }

    @Test void aSlowButAnsweringCallThatOutlastsTheItemIsStillUpstreamsTimeoutRow() throws Exception {
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest r) {
                requests.incrementAndGet();
                return new MockResponse().setHeadersDelay(4, java.util.concurrent.TimeUnit.SECONDS).setBody(
                        "{\"choices\":[{\"message\":{\"content\":\"late\"}}],\"usage\":{\"total_tokens\":1}}");
            }
        });
        ChatModel m = model();
        List<Item> items = List.of(new Item("i0", Map.of()));
        RolloutRunner runner = RolloutRunner.builder().workers(1).itemTimeout(Duration.ofSeconds(2)).abortWhenAllFail(false).build();
        List<RolloutResult> rows = runner.run(new RolloutRequest(new BatchSpec("eval", "val", 1, items), "skill", tmp, false), (item, ctx) -> {
            ChatResponse r = m.chat(request().toBuilder().timeout(Duration.ofSeconds(10)).build());
            return RolloutRunner.Outcome.of(new RolloutResult(item.id(), 1, 1, Map.of("agent_ok", true, "answer", r.text())), List.of());
        });
        assertFalse(rows.get(0).isErrored(), rows.get(0).fields().toString());
        assertEquals("task-timeout-2s", rows.get(0).failReason());
        assertEquals(0.0, rows.get(0).hard());
    }

    @Test void anItemCutOffByItsWallLimitWhileACallRetriesIsErroredAndOneThatWasSlowIsATimeoutRow() throws Exception {
        // what an overloaded machine does to a retrying call (its attempts overrun their timeouts), shown directly
        List<Item> items = List.of(new Item("retrying", Map.of()), new Item("slow", Map.of()));
        RolloutRunner runner = RolloutRunner.builder().workers(2).itemTimeout(Duration.ofSeconds(1)).abortWhenAllFail(false).build();
        List<RolloutResult> rows = runner.run(new RolloutRequest(new BatchSpec("eval", "val", 1, items), "skill", tmp, false), (item, ctx) -> {
            if (item.id().equals("retrying")) CallDeadline.waiting(CallDeadline.current(), true);
            Thread.sleep(5_000);
            throw new AssertionError("cut off by the wall limit first");
        });
        assertTrue(rows.get(0).isErrored(), rows.get(0).fields().toString());
        assertTrue(rows.get(0).failReason().contains("ran out while a failed model call was being retried"), rows.get(0).failReason());
        assertFalse(rows.get(1).isErrored());
        assertEquals("task-timeout-1s", rows.get(1).failReason());
        assertEquals(1, Files.readAllLines(tmp.resolve(RolloutRunner.ERRORED_FILE)).size());
        assertEquals(1, Files.readAllLines(tmp.resolve("results.jsonl")).size());
    }

    @Test void aCallWaitingForASlotThatFailingCallsHoldGivesUpAtTheDeadline() throws Exception {
        ChatModel m = OpenAiCompatibleChatModel.builder().baseUrl(server.url("/v1/").toString()).model("m").apiKey("k")
                .backoff(Backoff.NONE).maxConcurrency(1).build();
        Thread holder = new Thread(() -> {
            try { m.chat(request().toBuilder().timeout(Duration.ofSeconds(6)).retries(1).build()); } catch (RuntimeException expected) { }
        });
        holder.start();
        while (requests.get() == 0) Thread.sleep(10); // the one slot is taken by a call the provider never answers
        long t0 = System.nanoTime();
        BackendException e = assertThrows(BackendException.class, () -> CallDeadline.in(Duration.ofSeconds(2)).run(() -> m.chat(request())));
        assertTrue((System.nanoTime() - t0) / 1e9 < 4, "gave up at the deadline");
        assertTrue(e.getMessage().contains("no free call slot"), e.getMessage());
        assertEquals(1, requests.get(), "the waiting call never went out");
        holder.join();
    }
}
