package io.skillopt4j.run;

import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Thread-safe. Writes every file of a run folder atomically (temp file + fsync + rename) with upstream's
 * formats: pretty JSON as Python's {@code json.dumps(indent=2, ensure_ascii=False)}, Markdown as UTF-8 text,
 * and JSON-lines appends for {@code lr_history.jsonl}. {@link #json}/{@link #text} also force the data to disk
 * (resume pointers, skills, history); {@link #artefact} skips the fsync for per-call files that a resumed run
 * can recompute (minibatch patches, merges, reports), keeping the per-call cost well under a millisecond:
 * the rename still makes them all-or-nothing for a killed process.
 */
public final class RunWriter {
    private final RunPaths paths;
    /** Files still being written behind the caller (an evaluation's rollout items), by the folder they go to. */
    private final java.util.Queue<Pending> pending = new java.util.concurrent.ConcurrentLinkedQueue<>();

    // artefact: one file written behind (writeBehind), registered by its own path, so a sibling folder never waits for it
    private record Pending(Path dir, java.util.concurrent.CompletableFuture<Void> done, boolean artefact) {}

    public RunWriter(RunPaths paths) { this.paths = Objects.requireNonNull(paths, "paths"); }

    /** Returns the run's path helper. */
    public RunPaths paths() { return paths; }

    /** Atomically writes {@code value} as pretty JSON. */
    public void json(Path file, Object value) { AtomicFiles.writeJson(file, value); }

    /** Atomically writes {@code text}. */
    public void text(Path file, String text) {
        if (SkillBundle.isPacked(text) && RunPaths.bundleFolder(file).isPresent()) {
            batch().text(file, text).commit();
            return;
        }
        AtomicFiles.writeString(file, text == null ? "" : text);
    }

    /** Atomically writes {@code value} as pretty JSON without forcing it to disk (recomputable artefacts). */
    public void artefact(Path file, Object value) { artefactText(file, Json.pretty(value)); }

    /**
     * Atomically writes {@code text} without forcing it to disk (recomputable artefacts); with a {@link #writeBehind}
     * thread, on that thread: the caller goes on to its next model call and the file is {@link #pending} until written.
     */
    public void artefactText(Path file, String text) {
        String t = text == null ? "" : text;
        java.util.concurrent.Executor e = behind;
        if (e == null) {
            AtomicFiles.writeRecomputable(file, t);
            return;
        }
        java.util.concurrent.CompletableFuture<Void> done;
        try {
            done = java.util.concurrent.CompletableFuture.runAsync(() -> AtomicFiles.writeRecomputable(file, t), e);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            AtomicFiles.writeRecomputable(file, t); // the run's writer has stopped: write it here
            return;
        }
        register(file, done, true);
    }

    private volatile java.util.concurrent.Executor behind;

    /**
     * Writes later {@link #artefact}s on {@code thread} (the run's second writer thread; null: in line). Creating a file is
     * slow on a busy or small disk (most of all soon after many files were deleted), and a step writes six to ten
     * artefacts between its model calls. Commits wait for them, as for items.
     */
    public void writeBehind(java.util.concurrent.Executor thread) { this.behind = thread; }

    /** Returns an empty batch of durable writes that become visible together, in order, at {@link Batch#commit}. */
    public Batch batch() { return new Batch(this); }

    /**
     * Registers writes into {@code dir} (a folder, or one file) still running behind the caller: every
     * {@link Batch#commit}, {@link #awaitPending()} and {@link #awaitPending(Path)} of an overlapping folder waits for
     * them first, so a committed state never points at files that are not there yet (what resume relies on).
     */
    public void pending(Path dir, java.util.concurrent.CompletableFuture<Void> done) { register(dir, done, false); }

    private void register(Path path, java.util.concurrent.CompletableFuture<Void> done, boolean artefact) {
        if (done.isDone() && !done.isCompletedExceptionally()) return; // nothing to wait for; a failure is still reported
        pending.add(new Pending(path.toAbsolutePath().normalize(), done, artefact));
    }

    /** Waits for every pending write; rethrows the first failure (a write error is the run's error, as if written in line). */
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
     * Not thread-safe. The resume-critical files of one step (skills, history, runtime state, step record):
     * collected, then forced to disk together and renamed in the order they were added
     * ({@link AtomicFiles#writeAll}), so a step costs one disk flush instead of one per file, with the same
     * guarantees as writing them one by one with {@link #json}/{@link #text}.
     */
    public static final class Batch {
        private final java.util.LinkedHashMap<Path, byte[]> files = new java.util.LinkedHashMap<>();
        private final RunWriter writer;

        private Batch(RunWriter writer) { this.writer = writer; }

        /** Adds {@code value} as pretty JSON; a file added twice keeps its first position and its last content. */
        public Batch json(Path file, Object value) { return add(file, Json.pretty(value)); }

        /**
         * Adds {@code text}; a skill version or the best skill that is a multi-file bundle also gets its Agent Skill
         * folder next to it ({@link RunPaths#bundleFolder}), files the bundle no longer has removed after the commit.
         */
        public Batch text(Path file, String text) {
            add(file, text == null ? "" : text);
            if (SkillBundle.isPacked(text)) {
                RunPaths.bundleFolder(file).ifPresent(dir -> {
                    SkillBundle b = SkillBundle.unpack(text);
                    java.util.Set<Path> keep = new java.util.HashSet<>();
                    b.files().forEach((rel, content) -> {
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

        /** Removes the files of a bundle folder that its new version does not hold. */
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
            writer.awaitPending();
            AtomicFiles.writeAll(files);
            files.clear();
            folders.forEach(Batch::prune);
            folders.clear();
        }
    }

    /** Appends {@code value} as one JSON line (Python's default separators). */
    public void jsonLine(Path file, Object value) { AtomicFiles.appendLine(file, Json.line(value)); }
}
