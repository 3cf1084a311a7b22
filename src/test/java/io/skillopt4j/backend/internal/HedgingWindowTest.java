package io.skillopt4j.backend.internal;

import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What a stage's window learns from a hedged call: when the duplicate wins, the time since the first copy was sent,
 * so stragglers answered by their duplicates do not pull the stage's quantile down to the duplicates' short times.
 */
class HedgingWindowTest {
    static final long USUAL_MS = 100, DUPLICATE_MS = 5;
    MockWebServer server;
    final CountDownLatch release = new CountDownLatch(1);
    final Set<String> seen = ConcurrentHashMap.newKeySet();

    @BeforeEach void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest r) throws InterruptedException {
                String body = r.getBody().readUtf8();
                if (!body.startsWith("straggler")) Thread.sleep(USUAL_MS);
                else if (seen.add(body)) release.await(30, TimeUnit.SECONDS); // each straggler's first copy hangs
                else Thread.sleep(DUPLICATE_MS);
                return new MockResponse().setBody("ok");
            }
        });
        server.start();
    }

    @AfterEach void stop() throws IOException {
        release.countDown();
        server.shutdown();
    }

    Response send(OkHttpClient client, Hedging h, String body) throws IOException {
        Request req = new Request.Builder().url(server.url("/")).post(RequestBody.create(body, MediaType.get("text/plain"))).build();
        return Hedging.execute(client, req, h.call("rollout"));
    }

    @Test void aWinningDuplicateCountsTheTimeSinceTheFirstCopyWasSent() throws IOException {
        OkHttpClient client = new OkHttpClient.Builder().readTimeout(Duration.ofSeconds(30)).build();
        Hedging h = new Hedging(0.5, 1.0);
        for (int i = 0; i < Hedging.MIN_SAMPLES; i++) try (Response r = send(client, h, "usual " + i)) { assertEquals("ok", r.body().string()); }
        assertEquals(0, h.extraCalls());
        for (int i = 0; i < 2 * Hedging.MIN_SAMPLES; i++) try (Response r = send(client, h, "straggler " + i)) { assertEquals("ok", r.body().string()); }
        assertEquals(2 * Hedging.MIN_SAMPLES, h.extraCalls(), "every straggler was answered by its duplicate");

        // two thirds of the window are stragglers; had it kept the duplicates' 5 ms, its median would be 5 ms
        Duration after = h.call("rollout").delay();
        assertTrue(after.toMillis() >= USUAL_MS * 8 / 10, "hedge delay " + after.toMillis() + " ms");
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
