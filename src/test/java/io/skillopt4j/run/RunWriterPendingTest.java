package io.skillopt4j.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;

/** Writes left to finish behind the caller: commits and rollouts into the same folder wait for them. */
class RunWriterPendingTest {
    @TempDir Path tmp;

    @Test void aCommitWaitsForThePendingWritesFirst() throws Exception {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        CompletableFuture<Void> files = new CompletableFuture<>();
        w.pending(tmp.resolve("test_eval"), files);
        AtomicBoolean written = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try { Thread.sleep(50); } catch (InterruptedException e) { return; }
            written.set(true);
            files.complete(null);
        });
        writer.start();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> w.batch().text(tmp.resolve("state.json"), "{}").commit());
        assertTrue(written.get(), "the commit returned before the pending files were written");
        assertEquals("{}", Files.readString(tmp.resolve("state.json")));
        writer.join();
    }

    @Test void artefactsGoToTheWriteBehindThreadAndCommitsWaitForThem() throws Exception {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
            thread.execute(() -> { try { hold.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); } });
            w.writeBehind(thread);
            Path step = tmp.resolve("steps/step_0001");
            w.artefact(step.resolve("merged_patch.json"), java.util.Map.of("edits", java.util.List.of()));
            assertFalse(Files.exists(step.resolve("merged_patch.json")), "queued behind the held thread, not written in line");
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> w.awaitPending(step.resolve("selection_eval")),
                    "a rollout into a sibling folder does not wait for the step's artefacts");
            CompletableFuture<Void> items = new CompletableFuture<>();
            w.pending(step.resolve("selection_eval"), items);
            Thread release = new Thread(() -> { try { Thread.sleep(50); } catch (InterruptedException e) { return; } hold.countDown(); });
            release.start();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> w.awaitArtefacts(step), "the step's artefacts, not its evaluation's items");
            assertTrue(Files.exists(step.resolve("merged_patch.json")));
            items.complete(null);
            release.join();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> w.batch().text(tmp.resolve("runtime_state.json"), "{}").commit());
            assertEquals("{\n  \"edits\": []\n}", Files.readString(step.resolve("merged_patch.json")), "written before the commit");
            thread.shutdown();
            w.artefactText(step.resolve("candidate_skill.md"), "# skill");
            assertEquals("# skill", Files.readString(step.resolve("candidate_skill.md")), "a stopped writer thread: written in line");
        } finally {
            thread.shutdownNow();
        }
    }

    @Test void aFailedWriteIsRethrownOnceAndIgnoredQuietly() {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        w.pending(tmp.resolve("a"), CompletableFuture.completedFuture(null));
        w.pending(tmp.resolve("a"), CompletableFuture.failedFuture(new IllegalStateException("failed before it was registered")));
        assertThrows(IllegalStateException.class, () -> w.awaitPending(tmp.resolve("a")));
        assertDoesNotThrow(() -> w.awaitPending(), "reported once");
        CompletableFuture<Void> f = new CompletableFuture<>();
        w.pending(tmp.resolve("a"), f);
        f.completeExceptionally(new java.io.UncheckedIOException("cannot write a/x: disk full", new java.io.IOException("disk full")));
        RuntimeException e = assertThrows(java.io.UncheckedIOException.class, () -> w.batch().text(tmp.resolve("s"), "").commit());
        assertTrue(e.getMessage().contains("disk full"));
        assertFalse(Files.exists(tmp.resolve("s")), "nothing committed over a failed write");
        assertDoesNotThrow(() -> w.awaitPending(), "reported once");
        CompletableFuture<Void> g = new CompletableFuture<>();
        w.pending(tmp.resolve("b"), g);
        g.completeExceptionally(new IllegalStateException("x"));
        assertDoesNotThrow(() -> w.awaitPendingQuietly());
    }

    @Test void aFolderWaitsOnlyForWritesInsideItOrHoldingIt() {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        CompletableFuture<Void> never = new CompletableFuture<>();
        w.pending(tmp.resolve("slow_update/epoch_01/rollout_prev"), never);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            w.awaitPending(tmp.resolve("test_eval"));
            w.awaitPending(tmp.resolve("slow_update/epoch_01/rollout_curr"));
        });
        CompletableFuture<Void> inside = new CompletableFuture<>(), holding = new CompletableFuture<>();
        never.complete(null);
        w.pending(tmp.resolve("steps/step_0001/selection_eval/predictions/x"), inside);
        w.pending(tmp.resolve("steps"), holding);
        inside.complete(null);
        holding.complete(null);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> w.awaitPending(tmp.resolve("steps/step_0001/selection_eval")));
    }
}
