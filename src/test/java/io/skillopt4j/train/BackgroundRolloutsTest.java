package io.skillopt4j.train;

import io.skillopt4j.backend.Usage;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.*;

class BackgroundRolloutsTest {
    @TempDir Path tmp;

    /** Records every rollout request; a request into {@code blockDir} waits for {@code release}. */
    static final class Recording implements Benchmark {
        final List<RolloutRequest> requests = new ArrayList<>();
        final UsageMeter meter;
        volatile Path blockDir;
        final CountDownLatch release = new CountDownLatch(1);

        Recording(UsageMeter meter) { this.meter = meter; }

        @Override public String name() { return "recording"; }
        @Override public DataLoader data() { throw new UnsupportedOperationException(); }
        @Override public List<String> taskTypes() { return List.of(); }

        @Override public List<RolloutResult> rollout(RolloutRequest r) {
            synchronized (requests) {
                requests.add(r);
                requests.notifyAll();
            }
            if (r.outDir().equals(blockDir)) {
                try { release.await(10, TimeUnit.SECONDS); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
            }
            List<RolloutResult> out = new ArrayList<>();
            for (Item i : r.batch().items()) {
                meter.record("target", "rollout", Usage.of(10, 2), Duration.ZERO);
                out.add(new RolloutResult(i.id(), 1, 1, Map.of()));
            }
            return out;
        }

        RolloutRequest await(int n) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            synchronized (requests) {
                while (requests.size() < n) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) throw new TimeoutException("expected " + n + " rollouts, got " + requests.size());
                    requests.wait(Math.max(1, left / 1_000_000));
                }
                return requests.get(n - 1);
            }
        }

        int count() { synchronized (requests) { return requests.size(); } }
    }

    private static BatchSpec batch(String prefix, int n) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < n; i++) items.add(new Item(prefix + i, Map.of("question", "q" + i)));
        return new BatchSpec("eval", "valid_unseen", 42, items);
    }

    private static long calls(UsageMeter m) {
        UsageMeter.Counts c = m.byStage().get("rollout");
        return c == null ? 0 : c.calls();
    }

    @Test void runsOneQuietWavePerOptimizerWindowSoonestNeededJobFirst() throws Exception {
        UsageMeter meter = new UsageMeter();
        Recording bench = new Recording(meter);
        try (BackgroundRollouts bg = new BackgroundRollouts(bench, 2, meter)) {
            Path test = tmp.resolve("test_eval_baseline"), prev = tmp.resolve("slow_update/epoch_02/rollout_prev");
            bg.submit(batch("t", 5), "initial skill", test, Integer.MAX_VALUE);
            bg.submit(batch("p", 3), "epoch 1 skill", prev, 2);
            Thread.sleep(100);
            assertEquals(0, bench.count(), "no wave without an optimizer call");

            bg.optimizerCall();
            RolloutRequest first = bench.await(1);
            assertEquals(prev, first.outDir(), "the job needed first gets the window");
            assertEquals(List.of("p0", "p1"), first.batch().items().stream().map(Item::id).toList());
            assertEquals(42, first.batch().seed(), "a wave keeps its batch's seed");
            assertFalse(first.reportProgress(), "background waves stay off the progress bar");
            assertEquals("epoch 1 skill", first.skill());

            // an optimizer call while the trainer itself rolls out opens no window
            bg.foreground(() -> { bg.optimizerCall(); return null; });
            Thread.sleep(100);
            assertEquals(1, bench.count());

            bg.optimizerCall();
            assertEquals(List.of("p2"), bench.await(2).batch().items().stream().map(Item::id).toList());
            assertEquals(0, calls(meter), "background usage is held until the job is settled");
            bg.settle(prev, "epoch 1 skill");
            assertEquals(3, calls(meter));

            bg.optimizerCall();
            RolloutRequest third = bench.await(3);
            assertEquals(test, third.outDir());
            assertEquals(List.of("t0", "t1"), third.batch().items().stream().map(Item::id).toList());
            bg.settle(test, "initial skill");
            assertEquals(5, calls(meter));
            bg.optimizerCall();
            Thread.sleep(100);
            assertEquals(3, bench.count(), "a settled job runs no more waves: the foreground rollout does the rest");
        }
    }

    @Test void settleWaitsForTheWaveInFlightAndChecksTheSkill() throws Exception {
        UsageMeter meter = new UsageMeter();
        Recording bench = new Recording(meter);
        Path dir = tmp.resolve("test_eval_baseline");
        bench.blockDir = dir;
        try (BackgroundRollouts bg = new BackgroundRollouts(bench, 4, meter)) {
            bg.submit(batch("t", 8), "skill", dir, 1);
            bg.optimizerCall();
            bench.await(1);
            IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> bg.settle(dir, "another skill"));
            assertTrue(wrong.getMessage().contains("another skill"), wrong.getMessage());

            CompletableFuture<Void> settled = CompletableFuture.runAsync(() -> bg.settle(dir, "skill"));
            Thread.sleep(100);
            assertFalse(settled.isDone(), "settle waits while a wave of the job is in flight");
            bench.release.countDown();
            settled.get(10, TimeUnit.SECONDS);
            assertEquals(4, calls(meter));
        }
    }

    @Test void closeStopsTheJobThreadAndIgnoresLaterJobs() throws Exception {
        UsageMeter meter = new UsageMeter();
        Recording bench = new Recording(meter);
        BackgroundRollouts bg = new BackgroundRollouts(bench, 2, meter);
        bg.submit(batch("t", 4), "s", tmp.resolve("a"), 1);
        bg.close();
        bg.submit(batch("u", 4), "s", tmp.resolve("b"), 1);
        bg.optimizerCall();
        Thread.sleep(100);
        assertEquals(0, bench.count());
    }
}
