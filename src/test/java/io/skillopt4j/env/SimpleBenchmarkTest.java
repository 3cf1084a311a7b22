package io.skillopt4j.env;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimpleBenchmarkTest {
    @TempDir Path tmp;

    @Test
    void a_notebook_defined_benchmark_registers_rolls_out_and_scores() throws Exception {
        List<Item> items = new ArrayList<>();
        String[][] caps = {{"fr", "France", "Paris"}, {"de", "Germany", "Berlin"}, {"it", "Italy", "Rome"},
                {"es", "Spain", "Madrid"}, {"pt", "Portugal", "Lisbon"}, {"nl", "Netherlands", "Amsterdam"}};
        for (String[] c : caps) items.add(new Item(c[0], Map.of("q", "Capital of " + c[1] + "?", "a", c[2], "task_type", "europe")));
        BenchmarkFactory f = SimpleBenchmark.builder("capitals").items(items).ratio("1:1:1", 7)
                .systemPrompt("You answer geography questions.\n\n{skill_section}Answer inside <answer></answer>.")
                .userPrompt(item -> item.str("q"))
                .scorer((item, answer) -> Score.binary(answer.equalsIgnoreCase(item.str("a"))))
                .build();
        Benchmarks.register(f);
        List<ChatRequest> seen = new CopyOnWriteArrayList<>();
        ChatModel target = req -> {
            seen.add(req);
            String q = req.lastUserText();
            return ChatResponse.of(q.contains("France") ? "Thinking...\n<answer>Paris</answer>" : "<answer>Lyon</answer>", Usage.ZERO);
        };
        Benchmark b = Benchmarks.create("capitals", new BenchmarkContext(FlatConfig.empty(), ModelRoles.of(target, target), tmp));
        assertEquals(List.of("europe"), b.taskTypes());
        assertEquals(2, b.data().trainSize());
        List<Item> all = new ArrayList<>(b.data().split("train"));
        all.addAll(b.data().split("val"));
        all.addAll(b.data().split("test"));
        List<RolloutResult> rs = b.rollout(new RolloutRequest(new BatchSpec("eval", "all", 42, all), "Prefer capitals.", tmp.resolve("r"), false));
        assertEquals(6, rs.size());
        for (RolloutResult r : rs) assertEquals(r.id().equals("fr") ? 1.0 : 0.0, r.hard(), r.id());
        assertEquals("You answer geography questions.\n\n## Skill\nPrefer capitals.\n\nAnswer inside <answer></answer>.", seen.get(0).systemText());
        assertEquals("rollout", seen.get(0).stage());
        assertTrue(Files.exists(tmp.resolve("r/predictions/fr/conversation.json")));
        List<RolloutResult> again = b.rollout(new RolloutRequest(new BatchSpec("eval", "all", 42, all), "", tmp.resolve("r2"), false));
        assertFalse(seen.get(seen.size() - 1).systemText().contains("## Skill"));
        assertEquals(6, again.size());
    }

    @Test
    void an_exec_agent_target_gets_the_task_with_the_skill_in_a_workspace_under_the_rollout_folder() {
        List<io.skillopt4j.backend.ExecTask> tasks = new CopyOnWriteArrayList<>();
        io.skillopt4j.backend.ExecAgent agent = new io.skillopt4j.backend.ExecAgent() {
            @Override public io.skillopt4j.backend.ExecResult run(io.skillopt4j.backend.ExecTask task) {
                tasks.add(task);
                return new io.skillopt4j.backend.ExecResult("Paris", "I checked.", List.of(), null, null, true, "");
            }
            @Override public String backend() { return "fake_exec"; }
        };
        ChatModel unused = req -> { throw new AssertionError("the chat target must not be called"); };
        BenchmarkFactory f = SimpleBenchmark.builder("capitals-exec")
                .splits(List.of(new Item("fr", Map.of("q", "Capital of France?", "a", "Paris"))), List.of(), List.of())
                .userPrompt(item -> item.str("q"))
                .scorer((item, answer) -> Score.binary(answer.equals(item.str("a"))))
                .build();
        Benchmark b = f.create(new BenchmarkContext(FlatConfig.empty(),
                new ModelRoles(unused, unused, java.util.Optional.of(agent), null), tmp));
        List<RolloutResult> rs = b.rollout(new RolloutRequest(b.data().buildTrainBatch(1, 1), "My skill", tmp.resolve("x"), true));
        assertEquals(1.0, rs.get(0).hard());
        assertEquals("fr", tasks.get(0).id());
        assertEquals("My skill", tasks.get(0).skill());
        assertEquals(tmp.resolve("x/workspaces/fr"), tasks.get(0).workspace());
        assertTrue(tasks.get(0).prompt().startsWith("Capital of France?") && tasks.get(0).prompt().contains("<answer>"));
    }
}
