package io.skillopt4j.env.sealqa;

import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.LlmJudge;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SealQaBenchmarkTest {
    @TempDir Path tmp;

    @Test
    void the_judge_grades_each_answer_and_search_results_reach_the_target() {
        EnvFixtures.Scripted judge = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            String gold = u.replaceAll("(?s).*Gold target: (.*?)\n.*", "$1");
            String pred = u.replaceAll("(?s).*Predicted answer: (.*?)\n.*", "$1");
            if (pred.equalsIgnoreCase("I don't know")) return "C";
            return pred.toLowerCase().contains(gold.toLowerCase()) ? "A" : "B";
        });
        EnvFixtures.Scripted target = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            if (u.contains("Saturn")) return "Newest source wins.\n<answer>274</answer>";
            if (u.contains("Nobel")) return "<answer>I don't know</answer>";
            if (u.contains("Cricket")) return "<answer>India (Ahmedabad)</answer>";
            if (u.contains("Oppenheimer")) return "<answer>Christopher Nolan</answer>";
            return "<answer>something else</answer>";
        });
        Benchmark b = Benchmarks.create("sealqa", EnvFixtures.context(Map.of("split_mode", "split_dir",
                "split_dir", EnvFixtures.resource("sealqa").toString(), "judge_max_completion_tokens", 77, "judge_retries", 2), judge, target, tmp));
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of("train-0000", "train-0001", "val-0000", "val-0001", "test-0000", "test-0001"), rs.stream().map(RolloutResult::id).toList());
        assertEquals(List.of(1.0, 0.0, 1.0, 0.0, 0.0, 1.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals("NOT_ATTEMPTED", rs.get(1).str("judge_grade"));
        assertEquals("Science", rs.get(0).taskType());
        String saturn = target.requests.stream().filter(r -> r.lastUserText().contains("Saturn")).findFirst().orElseThrow().lastUserText();
        assertTrue(saturn.startsWith("## Search Results\n[DOC 1] Saturn moons\nhttps://example.org/a\nIn March 2025"), saturn);
        assertEquals(77, judge.requests.get(0).maxCompletionTokens());
        assertEquals(2, judge.requests.get(0).retries());
    }

    @Test
    void judge_replies_parse_to_grades() {
        LlmJudge j = new LlmJudge(req -> io.skillopt4j.backend.ChatResponse.of("A", null), 10, 1);
        assertTrue(j.grade("q", "g", "p").correct());
        assertEquals("INCORRECT", new LlmJudge(req -> io.skillopt4j.backend.ChatResponse.of("The grade is B.", null), 10, 1).grade("q", "g", "p").grade());
        assertEquals("NOT_ATTEMPTED", new LlmJudge(req -> io.skillopt4j.backend.ChatResponse.of("NOT_ATTEMPTED", null), 10, 1).grade("q", "g", "p").grade());
        assertEquals("INCORRECT", new LlmJudge(req -> io.skillopt4j.backend.ChatResponse.of("hmm", null), 10, 1).grade("q", "g", "p").grade());
    }
}
