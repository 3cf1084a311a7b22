package io.skillopt4j.run;

import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Thread-safe. Writes every file of a run folder atomically (temp file + rename) in upstream's formats: pretty JSON
 * as Python's {@code json.dumps(indent=2, ensure_ascii=False)}, UTF-8 Markdown, JSON-lines appends.
 * {@link #json}/{@link #text} also force the data to disk; {@link #artefact} skips that for files a resume recomputes.
 */
public final class RunWriter {
    private final RunPaths paths;
    /** Files still being written behind the caller, by the folder they go to. */
    private final java.util.Queue<Pending> pending = new java.util.concurrent.ConcurrentLinkedQueue<>();

    // artefact: one file written behind, registered by its own path, so a sibling folder never waits for it
    private record Pending(Path dir, java.util.concurrent.CompletableFuture<Void> done, boolean artefact) {}

    public RunWriter(RunPaths paths) { this.paths = Objects.requireNonNull(paths, "paths"); }

    public RunPaths paths() { return paths; }

    public void json(Path file, Object value) { AtomicFiles.writeJson(file, value); }

    public void text(Path file, String text) {
        if (SkillBundle.isPacked(text) && RunPaths.bundleFolder(file).isPresent()) {
            batch().text(file, text).commit();
            return;
        }
        AtomicFiles.writeString(file, text == null ? "" : text);
    }

    /** As {@link #artefactText}, as pretty JSON. */
    public void artefact(Path file, Object value) { artefactText(file, Json.pretty(value)); }

    /** Writes {@code text} without forcing it to disk; with a {@link #writeBehind} thread, on it, pending until written. */
    public void artefactText(Path file, String text) {
        String t = text == null ? "" : text;
        java.util.concurrent.Executor e = behind;
        if (e == null) {
            AtomicFiles.writeRecomputable(file, t);
            return;
        }
        try {
            register(file, java.util.concurrent.CompletableFuture.runAsync(() -> AtomicFiles.writeRecomputable(file, t), e), true);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            AtomicFiles.writeRecomputable(file, t); // the run's writer has stopped: write it here
        }
    }

    private volatile java.util.concurrent.Executor behind;

    /** Writes later {@link #artefact}s on {@code thread} (null: in line), as creating a file can be slow; commits wait. */
    public void writeBehind(java.util.concurrent.Executor thread) { this.behind = thread; }

    /** Returns an empty batch of durable writes that become visible together, in order, at {@link Batch#commit}. */
    public Batch batch() { return new Batch(); }

    /**
     * Registers writes into {@code dir} (a folder, or one file) still running behind the caller: every commit or await
     * of an overlapping folder waits for them first, so a committed state never points at files not there yet.
     */
    public void pending(Path dir, java.util.concurrent.CompletableFuture<Void> done) { register(dir, done, false); }

    private void register(Path path, java.util.concurrent.CompletableFuture<Void> done, boolean artefact) {
        if (done.isDone() && !done.isCompletedExceptionally()) return; // nothing to wait for; a failure is still reported
        pending.add(new Pending(path.toAbsolutePath().normalize(), done, artefact));
    }

    /** Waits for every pending write; rethrows the first failure, as if written in line. */
    public void awaitPending() { await(null, false, false); }

    /** As {@link #awaitPending()} for writes into {@code dir}, a folder inside it or one holding it. */
    public void awaitPending(Path dir) { await(dir.toAbsolutePath().normalize(), false, false); }

    /** As {@link #awaitPending(Path)} for the {@link #artefact}s written behind into {@code dir} only (not rollouts' items). */
    public void awaitArtefacts(Path dir) { await(dir.toAbsolutePath().normalize(), false, true); }

    /** As {@link #awaitPending()}, ignoring failures: on a path that already fails or stops. */
    public void awaitPendingQuietly() { await(null, true, false); }

    private void await(Path dir, boolean quietly, boolean artefactsOnly) {
        for (java.util.Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (artefactsOnly && !p.artefact()) continue;
            if (dir != null && !p.dir().startsWith(dir) && !dir.startsWith(p.dir())) continue;
            try {
                p.done().join();
            } catch (java.util.concurrent.CompletionException e) {
                it.remove(); // reported once
                if (quietly) continue;
                if (e.getCause() instanceof RuntimeException re) throw re;
                throw e;
            }
            it.remove();
        }
    }

    /**
     * Not thread-safe. The resume-critical files of one step: forced to disk together, then renamed in the order they
     * were added ({@link AtomicFiles#writeAll}), as safe as writing them one by one at one flush's cost.
     */
    public final class Batch {
        private final java.util.LinkedHashMap<Path, byte[]> files = new java.util.LinkedHashMap<>();

        private Batch() {}

        /** Adds {@code value} as pretty JSON; a file added twice keeps its first position and its last content. */
        public Batch json(Path file, Object value) { return add(file, Json.pretty(value)); }

        /** Adds {@code text}; a bundle skill also gets its folder ({@link RunPaths#bundleFolder}), pruned at commit. */
        public Batch text(Path file, String text) {
            add(file, text == null ? "" : text);
            if (SkillBundle.isPacked(text)) {
                RunPaths.bundleFolder(file).ifPresent(dir -> {
                    java.util.Set<Path> keep = new java.util.HashSet<>();
                    SkillBundle.unpack(text).files().forEach((rel, content) -> {
                        Path f = dir.resolve(rel).normalize();
                        keep.add(f);
                        add(f, content);
                    });
                    folders.put(dir, keep);
                });
            }
            return this;
        }

        private final java.util.Map<Path, java.util.Set<Path>> folders = new java.util.LinkedHashMap<>();

        private static void prune(Path dir, java.util.Set<Path> keep) {
            try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(dir)) {
                for (Path f : (Iterable<Path>) s.filter(java.nio.file.Files::isRegularFile)::iterator)
                    if (!keep.contains(f.normalize()) && !f.getFileName().toString().startsWith(".")) java.nio.file.Files.deleteIfExists(f);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot tidy the skill folder " + dir, e);
            }
        }

        private Batch add(Path file, String text) {
            files.put(file, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return this;
        }

        /** Writes everything added so far, once the writer's pending writes are done, and empties the batch. */
        public void commit() {
            if (files.isEmpty()) return;
            awaitPending();
            AtomicFiles.writeAll(files);
            files.clear();
            folders.forEach(Batch::prune);
            folders.clear();
        }
    }

    /** Appends {@code value} as one JSON line (Python's default separators). */
    public void jsonLine(Path file, Object value) { AtomicFiles.appendLine(file, Json.line(value)); }
}
