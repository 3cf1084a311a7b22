package io.skillopt4j.env.livemath;

import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LiveMathBenchmarkTest {
    @TempDir Path tmp;

    @Test
    void labels_are_normalised_and_answers_mapped_as_upstream() {
        assertEquals("B", McqItems.normLabel(" b). "));
        assertEquals("C", McqItems.normLabel("c:"));
        List<McqItems.Choice> cs = List.of(new McqItems.Choice("A", "linear"), new McqItems.Choice("B", "quadratic"));
        assertEquals("B", McqItems.predictedLabel("b.", cs));
        assertEquals("A", McqItems.predictedLabel("Linear", cs), "exact choice text maps to its label");
        assertEquals("B", McqItems.predictedLabel("B) because quadratic", cs), "first token");
        assertEquals("QUADRATIC GROWTH", McqItems.predictedLabel("quadratic growth", cs), "invalid label kept");
    }

    @Test
    @SuppressWarnings("unchecked")
    void choice_shuffles_equal_python_for_seeded_ids() throws Exception {
        List<Object> vectors = (List<Object>) Json.read(EnvFixtures.resource("livemath_shuffle_vectors.json"));
        for (Object o : vectors) {
            Map<String, Object> v = (Map<String, Object>) o;
            int n = ((Number) v.get("n")).intValue();
            List<Object> choices = new ArrayList<>();
            for (int i = 0; i < n; i++) choices.add(Map.of("label", String.valueOf((char) ('A' + i)), "text", "t" + (char) ('A' + i)));
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("choices", choices);
            f.put("correct_choice", Map.of("label", "A", "text", "tA"));
            Item shuffled = McqItems.shuffled(new Item((String) v.get("id"), f), ((Number) v.get("seed")).longValue());
            List<String> order = McqItems.choices(shuffled).stream().map(c -> c.text().substring(1)).toList();
            assertEquals(v.get("order"), order, v.toString());
            String expectedCorrect = String.valueOf((char) ('A' + ((List<?>) v.get("order")).indexOf("A")));
            assertEquals(expectedCorrect, McqItems.correctLabel(shuffled), "the correct option is relabelled with its new position");
        }
    }

    @Test
    void a_fixture_rollout_shuffles_choices_hides_hints_and_scores_labels() throws Exception {
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            for (String line : u.split("\n")) {
                if (line.endsWith(". n!") || line.endsWith(". compact domain") || line.endsWith(". 1") || line.endsWith(". logarithmic")) {
                    return "Reasoning...\n<answer>" + line.charAt(0) + "</answer>";
                }
            }
            return "<answer>Z</answer>";
        });
        Benchmark b = Benchmarks.create("livemathematicianbench", EnvFixtures.context(
                Map.of("split_mode", "split_dir", "split_dir", EnvFixtures.resource("livemath").toString()), model, tmp));
        assertEquals(List.of("analysis", "combinatorics", "inequalities", "logic", "topology"), b.taskTypes());
        Item first = b.data().split("train").get(0);
        assertEquals("202511:1", first.id());
        assertEquals("combinatorics", first.taskType());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of(1.0, 1.0, 1.0, 0.0, 1.0, 0.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals("math_mcq", rs.get(4).taskType());
        assertTrue(rs.get(5).failReason().startsWith("MCQ=0: predicted 'Z' but expected '"), rs.get(5).failReason());
        String user = model.requests.get(0).lastUserText();
        assertTrue(user.startsWith("## Question\n"));
        assertFalse(user.contains("## Theorem"));
        assertFalse(model.requests.get(0).systemText().contains("## Skill"));
    }

    @Test
    void theorem_and_sketch_hints_are_added_when_enabled() {
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> "<answer>A</answer>");
        Benchmark b = Benchmarks.create("livemathematicianbench", EnvFixtures.context(Map.of("split_mode", "split_dir",
                "split_dir", EnvFixtures.resource("livemath").toString(), "use_theorem", true, "use_sketch", "true", "shuffle_choices", false), model, tmp));
        List<RolloutResult> rs = b.rollout(new RolloutRequest(b.data().buildEvalBatch(1, "train", 42), "", tmp.resolve("h"), false));
        assertEquals(1, rs.size());
        String user = model.requests.get(0).lastUserText();
        assertTrue(user.contains("A. n^2\nB. 2^n\nC. n!\nD. n"), user);
        assertTrue(user.contains("## Theorem\nTheorem 0.") && user.contains("## Proof Sketch\nSketch 0."), user);
    }
}
