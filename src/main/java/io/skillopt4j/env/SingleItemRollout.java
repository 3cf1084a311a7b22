package io.skillopt4j.env;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Stateless. Runs one item of a batch through a benchmark into a scratch folder and reads back what the runner
 * wrote there — the row and the item's prediction files — so an engine worker can hand them to the coordinator's
 * {@link RolloutRunner}, which writes them into the real rollout folder. The item keeps its batch's phase, split
 * and seed, so it runs exactly as it would inside the whole batch (items are independent).
 */
public final class SingleItemRollout {
    /** Immutable. One settled item: its results row and its prediction files (null when it left none). */
    public record Settled(RolloutResult row, RolloutRunner.Outcome artefacts) {}

    private SingleItemRollout() {}

    /** Runs {@code item} of {@code batch} with {@code skill} in the empty folder {@code scratch}. */
    public static Settled run(Benchmark benchmark, BatchSpec batch, Item item, String skill, boolean evalFeedback, Path scratch) {
        BatchSpec one = new BatchSpec(batch.phase(), batch.split(), batch.seed(), List.of(item));
        RuntimeException failed = null;
        try {
            benchmark.rollout(new RolloutRequest(one, skill, scratch, evalFeedback, false));
        } catch (RuntimeException e) {
            failed = e; // a one-item batch whose item failed at the agent level aborts after writing its row
        }
        RolloutResult row = RolloutRunner.readResults(scratch.resolve("results.jsonl")).get(item.id());
        // an errored item is handed back too: the coordinator counts it and stores it as errored, not as finished
        if (row == null) row = RolloutRunner.readResults(scratch.resolve(RolloutRunner.ERRORED_FILE)).get(item.id());
        if (row == null) throw failed != null ? failed : new IllegalStateException("rollout wrote no row for item " + item.id());
        return new Settled(row, artefacts(scratch.resolve("predictions").resolve(RolloutRunner.safeId(item.id())), row));
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
