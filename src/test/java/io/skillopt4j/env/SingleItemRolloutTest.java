package io.skillopt4j.env;

import io.skillopt4j.internal.AtomicFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** An item settled in memory on a worker is the item the runner would have written to a scratch folder and read back. */
class SingleItemRolloutTest {
    @TempDir Path tmp;

    /** Items by id: a scored one with files (some written by the task itself), a failed one, a slow one, a throwing one. */
    private static final class Fixture implements Benchmark {
        @Override public String name() { return "fixture"; }
        @Override public DataLoader data() { return null; }
        @Override public List<String> taskTypes() { return List.of(); }

        @Override public List<RolloutResult> rollout(RolloutRequest request) {
            return RolloutRunner.builder().itemTimeout(Duration.ofSeconds(1)).build().run(request, (item, ctx) -> {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("agent_ok", !item.id().equals("failed"));
                switch (item.id()) {
                    case "slow" -> Thread.sleep(10_000);
                    case "boom" -> throw new IllegalStateException("no answer");
                    default -> { }
                }
                AtomicFiles.writeString(ctx.itemDir().resolve("trace/own.txt"), "written by the task");
                return new RolloutRunner.Outcome(new RolloutResult(item.id(), 1, 0.5, f), List.of(Map.of("role", "user", "content", "q " + item.id())),
                        "system", "", Map.of("extra.txt", "x"));
            });
        }
    }

    @Test
    void capturedItemsEqualTheItemsReadBackFromAScratchFolder() {
        BatchSpec batch = new BatchSpec("train", "train", 3, List.of());
        for (String id : List.of("scored", "failed", "slow", "boom")) {
            Item item = new Item(id, Map.of("question", "q"));
            SingleItemRollout.Settled captured = SingleItemRollout.run(new Fixture(), batch, item, "# Skill", true, tmp.resolve("captured-" + id));

            Path dir = tmp.resolve("files-" + id);
            try {
                new Fixture().rollout(new RolloutRequest(new BatchSpec("train", "train", 3, List.of(item)), "# Skill", dir, true, false));
            } catch (RuntimeException allFailed) {
                // a one-item batch whose item failed at the agent level throws after writing its row
            }
            RolloutResult row = RolloutRunner.readResults(dir.resolve("results.jsonl")).getOrDefault(id,
                    RolloutRunner.readResults(dir.resolve(RolloutRunner.ERRORED_FILE)).get(id));
            RolloutRunner.Outcome files = SingleItemRollout.artefacts(dir.resolve("predictions").resolve(id), row);

            assertFalse(java.nio.file.Files.exists(tmp.resolve("captured-" + id).resolve("results.jsonl")), "settled in memory: " + id);
            assertEquals(row.toJson(), captured.row().toJson(), id);
            assertEquals(files == null, captured.artefacts() == null, id);
            if (files != null) {
                assertEquals(files.conversation(), captured.artefacts().conversation(), id);
                assertEquals(files.systemPrompt(), captured.artefacts().systemPrompt(), id);
                assertEquals(files.userPrompt(), captured.artefacts().userPrompt(), id);
                assertEquals(files.files(), captured.artefacts().files(), id);
            }
        }
    }
}
