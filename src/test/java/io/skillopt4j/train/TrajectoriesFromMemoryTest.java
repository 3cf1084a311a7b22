package io.skillopt4j.train;

import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.ItemTraces;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The analysts' trajectories rendered from a rollout's traces in memory are the ones rendered from its files. */
class TrajectoriesFromMemoryTest {
    @TempDir Path tmp;

    private static RolloutRunner.Outcome outcome(Item item) {
        int n = (int) item.fields().get("n");
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("question", "Q" + n);
        fields.put("task_type", "qa");
        if (n % 2 == 0) fields.put("fail_reason", "EM=0");
        fields.put("n_turns", 2);
        RolloutResult r = new RolloutResult(item.id(), n % 2, 0.25 * n, fields);
        List<Object> conv = new ArrayList<>();
        conv.add(Map.of("type", "message", "turn", 1, "content", "réponse \ud83d\ude00 " + n));
        conv.add(Map.of("type", "tool_call", "cmd", Map.of("b", 2, "a", List.of(1.5, 1e-7, 3)), "obs", "lone \ud800 surrogate"));
        conv.add(Map.of("action", "go", "env_feedback", 0.1 + 0.2, "step", 3, "reasoning", "because"));
        conv.add("a bare entry");
        Map<String, String> files = n == 1 ? Map.of("claude_trace_steps.txt", "steps \ud800", "target_user_prompt.txt", "overridden")
                : Map.of("claude_trace_steps.txt", "steps " + n);
        return new RolloutRunner.Outcome(r, conv, n == 2 ? "" : "SYS \ud83d\ude00", "USER " + n, files);
    }

    @Test
    void memory_and_disk_render_the_same_text_and_the_files_are_written_once_awaited() {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 4; i++) items.add(new Item("i/" + i, Map.of("n", i)));
        RolloutRequest req = new RolloutRequest(new BatchSpec("train", "train", 7, items), "skill", tmp.resolve("rollout"), true);
        ItemTraces traces = new ItemTraces();
        List<RolloutResult> rs = ItemTraces.collect(traces, () -> RolloutRunner.builder().workers(2).abortWhenAllFail(false).build()
                .run(req, (item, ctx) -> outcome(item)));
        for (RolloutResult r : rs) assertNotNull(traces.get(r.id()));
        assertNull(traces.get("missing"));
        traces.awaitWritten();
        Path pred = tmp.resolve("rollout/predictions");
        assertTrue(Files.isRegularFile(pred.resolve("i_1/claude_trace_steps.txt")));
        assertFalse(Files.exists(pred.resolve("i_2/target_system_prompt.txt")));
        Trajectories t = new Trajectories(true, true);
        String fromDisk = t.format(rs, pred);
        assertEquals(fromDisk, t.format(rs, pred, traces));
        assertTrue(fromDisk.contains("overridden") && fromDisk.contains("Claude Trace Steps"), fromDisk);
        for (RolloutResult r : rs) assertEquals(Trajectories.conversation(pred, r.id()), Trajectories.conversation(pred, r.id(), traces.get(r.id())));
    }

    @Test
    void without_a_collector_the_rollout_returns_with_its_files_written() throws Exception {
        Item item = new Item("x", Map.of("n", 3));
        RolloutRequest req = new RolloutRequest(new BatchSpec("eval", "val", 7, List.of(item)), "skill", tmp.resolve("r"), false);
        RolloutRunner.builder().workers(1).abortWhenAllFail(false).build().run(req, (it, ctx) -> outcome(it));
        assertEquals("USER 3", Files.readString(tmp.resolve("r/predictions/x/target_user_prompt.txt")));
        assertEquals(1, Files.readAllLines(tmp.resolve("r/results.jsonl")).size());
    }

    /** A benchmark whose items run through RolloutRunner with {@link #outcome}. */
    private static io.skillopt4j.env.Benchmark runner() {
        return new io.skillopt4j.env.Benchmark() {
            @Override public String name() { return "memory"; }
            @Override public io.skillopt4j.env.DataLoader data() { return null; }
            @Override public List<String> taskTypes() { return List.of("qa"); }
            @Override public List<RolloutResult> rollout(RolloutRequest req) {
                return RolloutRunner.builder().workers(2).abortWhenAllFail(false).build().run(req, (item, ctx) -> outcome(item));
            }
        };
    }

    @Test
    void an_evaluation_with_deferred_writes_has_its_files_before_the_next_commit_and_the_next_rollout_into_its_folder() throws Exception {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < 6; i++) items.add(new Item("e" + i, Map.of("n", i)));
        BatchSpec batch = new BatchSpec("eval", "valid_seen", 7, items);
        io.skillopt4j.run.RunWriter w = new io.skillopt4j.run.RunWriter(new io.skillopt4j.run.RunPaths(tmp));
        Rollout rollout = new Rollout(runner()).withDeferredWrites(w);
        Path dir = tmp.resolve("selection_eval");
        Rollout.Outcome o = rollout.run(batch, "skill", dir, false);
        assertEquals(6, o.results().size());
        w.batch().text(tmp.resolve("runtime_state.json"), "{}").commit();
        for (Item it : items) assertTrue(Files.isRegularFile(dir.resolve("predictions").resolve(it.id()).resolve("conversation.json")), it.id());
        assertEquals(6, Files.readAllLines(dir.resolve("results.jsonl")).size());
        // the comparison's trajectories from the traces are those from the files
        for (Item it : items) {
            assertEquals(Longitudinal.trajectory(dir.resolve("predictions"), it.id(), null),
                    Longitudinal.trajectory(dir.resolve("predictions"), it.id(), o.traces().get(it.id())));
        }
        // a second rollout into the folder waits for the first one's files and reuses its rows
        Rollout.Outcome again = rollout.run(batch, "skill", dir, false);
        assertEquals(o.hard(), again.hard());
        w.awaitPending();
        assertEquals(6, Files.readAllLines(dir.resolve("results.jsonl")).size());
    }
}
