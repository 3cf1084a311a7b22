package io.skillopt4j.env;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/** Stateless. Runs one item of a batch for an engine worker and returns its row and prediction files. */
public final class SingleItemRollout {
    /** Immutable. One settled item: its results row and its prediction files (null when it left none). */
    public record Settled(RolloutResult row, RolloutRunner.Outcome artefacts) {}

    /** Where this thread's one-item rollout settles its item, while {@link #run} waits for it. */
    private static final ThreadLocal<Settled[]> CAPTURE = new ThreadLocal<>();

    private SingleItemRollout() {}

    /** Runs {@code item} of {@code batch} with {@code skill} in the empty folder {@code scratch}. */
    public static Settled run(Benchmark benchmark, BatchSpec batch, Item item, String skill, boolean evalFeedback, Path scratch) {
        BatchSpec one = new BatchSpec(batch.phase(), batch.split(), batch.seed(), List.of(item));
        Settled[] slot = new Settled[1];
        RuntimeException failed = io.skillopt4j.internal.ThreadScopes.with(CAPTURE, slot, () -> {
            try {
                benchmark.rollout(new RolloutRequest(one, skill, scratch, evalFeedback, false));
                return null;
            } catch (RuntimeException e) {
                return e; // a one-item batch whose item failed at the agent level aborts after settling its row
            }
        });
        if (slot[0] != null) return slot[0];
        // a rollout outside RolloutRunner wrote its row and files the usual way
        RolloutResult row = RolloutRunner.readResults(scratch.resolve("results.jsonl")).get(item.id());
        // an errored item is handed back too: the coordinator counts it and stores it as errored, not as finished
        if (row == null) row = RolloutRunner.readResults(scratch.resolve(RolloutRunner.ERRORED_FILE)).get(item.id());
        if (row == null) throw failed != null ? failed : new IllegalStateException("rollout wrote no row for item " + item.id());
        return new Settled(row, artefacts(scratch.resolve("predictions").resolve(RolloutRunner.safeId(item.id())), row));
    }

    /** Runs this thread's one captured item as the runner's pool would and settles it in memory; else false. */
    static boolean runCaptured(RolloutRequest request, List<Integer> todo, RolloutResult[] results, RolloutRunner.ItemTask task,
                               Duration wallLimit, BiFunction<Item, io.skillopt4j.backend.CallDeadline, RolloutResult> cutOffRow,
                               BiFunction<Item, Throwable, RolloutResult> erroredRow) {
        Settled[] slot = CAPTURE.get();
        if (slot == null || slot[0] != null || todo.size() != 1 || request.batch().items().size() != 1) return false;
        int idx = todo.get(0);
        Item item = request.batch().items().get(idx);
        Path itemDir = request.outDir().resolve("predictions").resolve(RolloutRunner.safeId(item.id()));
        Path ws = request.outDir().resolve("workspaces").resolve(RolloutRunner.safeId(item.id()));
        io.skillopt4j.backend.CallDeadline outer = io.skillopt4j.backend.CallDeadline.current(), deadline[] = {null};
        FutureTask<RolloutRunner.Outcome> run = new FutureTask<>(() -> io.skillopt4j.backend.UsageMeter.keyed(itemDir.toAbsolutePath().normalize().toString(), () -> {
            java.util.concurrent.Callable<RolloutRunner.Outcome> work = () -> task.run(item, new RolloutRunner.Context(request, item, itemDir, ws));
            if (wallLimit == null) return work.call();
            deadline[0] = io.skillopt4j.backend.CallDeadline.in(wallLimit, outer); // this thread is new: the caller's item is outer
            return deadline[0].run(work);
        }));
        io.skillopt4j.internal.Daemons.start("rollout-worker", run);
        RolloutRunner.Outcome o = null;
        RolloutResult row;
        try {
            o = wallLimit == null ? run.get() : run.get(wallLimit.toNanos(), TimeUnit.NANOSECONDS);
            row = RolloutRunner.withFailReason(o.result());
        } catch (TimeoutException e) {
            run.cancel(true);
            row = cutOffRow.apply(item, deadline[0]);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof io.skillopt4j.BudgetExceeded b) throw b; // no row: the item runs again
            row = erroredRow.apply(item, e.getCause());
        } catch (InterruptedException e) {
            run.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("rollout interrupted", e);
        }
        results[idx] = row;
        slot[0] = new Settled(row, settled(itemDir, row, o));
        return true;
    }

    /** What the task wrote to its folder overlaid by its outcome, as the runner would write it; null: neither. */
    private static RolloutRunner.Outcome settled(Path itemDir, RolloutResult row, RolloutRunner.Outcome o) {
        RolloutRunner.Outcome own = artefacts(itemDir, row);
        if (o == null) return own;
        Map<String, String> files = new TreeMap<>(own == null ? Map.of() : own.files());
        files.putAll(o.files());
        // written only when not empty, so a prompt file the task wrote itself would have been read back
        String system = o.systemPrompt().isEmpty() && own != null ? own.systemPrompt() : o.systemPrompt();
        String user = o.userPrompt().isEmpty() && own != null ? own.userPrompt() : o.userPrompt();
        return new RolloutRunner.Outcome(row, o.conversation(), system, user, files);
    }

    /** Reads an item's prediction folder back into an outcome (files the runner writes by name, the rest as files). */
    static RolloutRunner.Outcome artefacts(Path dir, RolloutResult row) {
        if (!Files.isDirectory(dir)) return null;
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                files.put(dir.relativize(f).toString().replace('\\', '/'), Files.readString(f, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
        }
        String conv = files.remove("conversation.json");
        List<?> conversation = conv == null ? List.of() : io.skillopt4j.internal.Json.parseArray(conv);
        String system = files.remove("target_system_prompt.txt");
        String user = files.remove("target_user_prompt.txt");
        return new RolloutRunner.Outcome(row, conversation, system, user, files);
    }
}
