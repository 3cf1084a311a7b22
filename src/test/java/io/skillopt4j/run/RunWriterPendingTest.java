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
