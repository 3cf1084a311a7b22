package io.skillopt4j.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** A run's rollouts share one writer thread inside {@link ItemWriter#runScoped}; each still sees only its own writes. */
class ItemWriterTest {
    @TempDir Path tmp;

    private static RolloutRunner.Outcome outcome(String id) {
        return new RolloutRunner.Outcome(new RolloutResult(id, 1, 1, Map.of()), List.of(Map.of("role", "assistant", "content", "a " + id)),
                "SYS", "USER " + id, Map.of());
    }

    @Test void insideARunScopeTheRolloutsShareOneThreadAndEachDrainSeesItsOwnFiles() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ItemWriter.runScoped(() -> {
            for (int r = 0; r < 3; r++) {
                ItemWriter w = new ItemWriter();
                Path dir = tmp.resolve("rollout" + r);
                for (int i = 0; i < 5; i++) {
                    String id = "i" + i;
                    w.item(dir.resolve("predictions").resolve(id), new ItemTrace(outcome(id)), dir.resolve("results.jsonl"), outcome(id).result());
                }
                w.write(() -> threads.add(Thread.currentThread().getName() + "@" + System.identityHashCode(Thread.currentThread())));
                w.drain();
                w.rethrow();
                assertDoesNotThrow(() -> assertEquals(5, Files.readAllLines(dir.resolve("results.jsonl")).size()));
                assertTrue(Files.isRegularFile(dir.resolve("predictions/i4/conversation.json")));
            }
            return null;
        });
        assertEquals(1, threads.size(), "one writer thread for the run: " + threads);
        // outside the scope a rollout has its own writer again, and its drain ends it
        ItemWriter own = new ItemWriter();
        own.write(() -> threads.add(Thread.currentThread().getName() + "@" + System.identityHashCode(Thread.currentThread())));
        own.drain();
        assertEquals(2, threads.size());
    }

    @Test void writesQueuedFromManyWorkersAreAllDoneWhenTheDrainReturns() throws Exception {
        for (int round = 0; round < 20; round++) {
            Set<Integer> done = ConcurrentHashMap.newKeySet();
            ItemWriter.runScoped(() -> {
                ItemWriter w = new ItemWriter();
                List<Thread> workers = new java.util.ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int base = t * 50;
                    workers.add(new Thread(() -> { for (int i = 0; i < 50; i++) { int k = base + i; w.write(() -> done.add(k)); } }));
                }
                workers.forEach(Thread::start);
                for (Thread t : workers) {
                    try { t.join(); } catch (InterruptedException e) { throw new IllegalStateException(e); }
                }
                w.drain();
                assertEquals(200, done.size(), "every queued write ran before drain() returned");
                return null;
            });
        }
    }

    @Test void aFailedWriteIsReportedByItsOwnRolloutOnly() {
        ItemWriter.runScoped(() -> {
            ItemWriter failing = new ItemWriter(), fine = new ItemWriter();
            failing.write(() -> { throw new IllegalStateException("disk full"); });
            fine.write(() -> {});
            fine.drain();
            assertDoesNotThrow(fine::rethrow);
            failing.drain();
            assertEquals("disk full", assertThrows(IllegalStateException.class, failing::rethrow).getMessage());
            ItemTraces traces = new ItemTraces();
            ItemWriter handed = new ItemWriter();
            handed.write(() -> { throw new IllegalStateException("gone"); });
            handed.handOver(traces);
            assertEquals("gone", assertThrows(IllegalStateException.class, traces::awaitWritten).getMessage());
            return null;
        });
    }

    @Test void handedOverWritesFinishBehindTheCallerAndTheScopeWaitsForThem() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ItemTraces traces = new ItemTraces();
        Path marker = tmp.resolve("late.txt");
        Thread opener = new Thread(() -> {
            try { Thread.sleep(50); } catch (InterruptedException e) { return; }
            release.countDown();
        });
        ItemWriter.runScoped(() -> {
            ItemWriter w = new ItemWriter();
            w.write(() -> {
                try { release.await(10, TimeUnit.SECONDS); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
                io.skillopt4j.internal.AtomicFiles.writeRecomputable(marker, "x");
            });
            w.handOver(traces);
            assertFalse(traces.written().isDone(), "handed over while the write still runs");
            opener.start();
            return null;
        });
        assertTrue(Files.isRegularFile(marker), "the scope waited for the run's writer");
        assertTrue(traces.written().isDone());
        opener.join();
    }
}
