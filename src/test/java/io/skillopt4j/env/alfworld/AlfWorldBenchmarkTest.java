package io.skillopt4j.env.alfworld;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlfWorldBenchmarkTest {
    @TempDir Path tmp;

    private Map<String, Object> config() {
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("split_dir", EnvFixtures.resource("alfworld").toString());
        cfg.put("alfworld_data", EnvFixtures.resource("alfworld_data").toString());
        cfg.put("alfworld_bridge", "python3 " + EnvFixtures.resource("fake_alfworld_bridge.py"));
        cfg.put("max_steps", 4);
        return cfg;
    }

    @Test
    void actions_are_projected_and_task_types_derived_from_game_paths() {
        assertEquals("take mug 1 from countertop 1", AlfWorldBenchmark.projectAction("<think>x</think><action>Take Mug 1 from countertop 1</action>"));
        assertEquals("en i should go to the fridge 1", AlfWorldBenchmark.projectAction("Without tags: then I should go to the fridge 1"), "last 30 chars");
        assertEquals("pick_and_place", AlfWorldBenchmark.taskType("json_2.1.1/train/pick_and_place_simple-Mug-None-CoffeeMachine-1/trial_1/game.tw-pddl"));
        assertEquals("other", AlfWorldBenchmark.taskType("x/y"));
        assertEquals("'a'\n 'b'", AlfWorldBenchmark.admissible(List.of("a", "help", "b")));
    }

    @Test
    void episodes_run_through_the_bridge_with_history_prompts_and_score_won() throws Exception {
        Pattern quoted = Pattern.compile("'([^']*)'");
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            if (u.contains("cool some apple")) return "I am not sure.";
            Matcher taken = Pattern.compile("already taken (\\d+) step").matcher(u);
            int n = taken.find() ? Integer.parseInt(taken.group(1)) : 0;
            String block = u.substring(u.lastIndexOf("admissible actions of the current situation are: ["));
            List<String> acts = new ArrayList<>();
            Matcher m = quoted.matcher(block);
            while (m.find()) acts.add(m.group(1));
            return "<think>step " + n + "</think><action>" + acts.get(Math.min(n, acts.size() - 1)) + "</action>";
        });
        Benchmark b = Benchmarks.create("alfworld", EnvFixtures.context(config(), model, tmp));
        assertEquals(6, b.taskTypes().size());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "Grab objects immediately.", tmp.resolve("r"), false));
        assertEquals(List.of(1.0, 1.0, 1.0, 0.0, 1.0, 0.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals("Episode ended without completing the task", rs.get(3).failReason());
        assertEquals("Timeout after 4 steps", rs.get(5).failReason());
        assertEquals(3, rs.get(2).fields().get("n_turns"));
        assertEquals("pick_heat_then_place_in_recep", rs.get(2).taskType());
        assertEquals("heat some egg and put it in plate.", rs.get(2).str("task_description"));
        String first = model.requests.get(0).lastUserText();
        assertTrue(first.startsWith("## Skill Knowledge\n") && first.contains("Grab objects immediately."), first);
        assertEquals(AlfWorldBenchmark.SYSTEM, model.requests.get(0).systemText());
        String later = model.requests.stream().map(r -> r.lastUserText()).filter(u -> u.contains("already taken 2 step")).findFirst().orElseThrow();
        assertTrue(later.contains("[Observation 1: '") && later.contains("[Observation 2: '"), later);
        List<?> conv = (List<?>) Json.read(tmp.resolve("r/predictions/val:0000/conversation.json"));
        Map<?, ?> step1 = (Map<?, ?>) conv.get(0);
        assertEquals("take egg 1 from fridge 1", step1.get("action"));
        assertEquals("You did: take egg 1 from fridge 1", step1.get("env_feedback"));
        assertEquals("step 0", step1.get("reasoning"));
    }

    @Test
    void an_absent_runtime_or_game_file_fails_before_any_model_call() {
        Map<String, Object> cfg = config();
        cfg.put("alfworld_bridge", "python3 -c import_sys;sys.exit(3)");
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("alfworld",
                EnvFixtures.context(cfg, new EnvFixtures.Scripted(r -> { throw new AssertionError("no call"); }), tmp)));
        assertTrue(e.getMessage().startsWith("alfworld needs the ALFWorld runtime") && e.getMessage().contains("pip install alfworld"), e.getMessage());
        Map<String, Object> cfg2 = config();
        cfg2.put("alfworld_data", tmp.toString());
        ConfigException e2 = assertThrows(ConfigException.class, () -> Benchmarks.create("alfworld",
                EnvFixtures.context(cfg2, new EnvFixtures.Scripted(r -> ""), tmp)));
        assertTrue(e2.getMessage().contains("item 0: field \"gamefile\" must be an existing game file"), e2.getMessage());
    }
}
