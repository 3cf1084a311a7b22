package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class TrainerDeterminismTest {
    @TempDir Path tmp;

    private static List<String> files(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void oneWorkerAndFourWorkersWriteTheSameRun() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path one = tmp.resolve("w1"), four = tmp.resolve("w4");
        Map<String, Object> c1 = TrainerEndToEndTest.baseConfig(skill, 1);
        Map<String, Object> c4 = TrainerEndToEndTest.baseConfig(skill, 4);
        c1.put("minibatch_size", 1);
        c4.put("minibatch_size", 1);
        TrainerEndToEndTest.trainer(c1, one, 1, null).train();
        TrainerEndToEndTest.trainer(c4, four, 4, null).train();

        assertEquals(TrainerResumeTest.timeless(one), TrainerResumeTest.timeless(four));
        assertEquals(files(one), files(four));
        for (String f : files(one)) {
            // token_usage.jsonl: lines in completion order, attempts named per session (summary.json's token_summary is compared)
            if (f.endsWith("results.jsonl") || f.equals("token_usage.jsonl") || f.equals("config.json") || f.equals("summary.json") || f.equals("runtime_state.json")
                    || f.equals("history.json") || f.endsWith("step_record.json") || f.endsWith("slow_result.json")
                    || f.endsWith("meta_skill_result.json")) continue;
            assertEquals(Files.readString(one.resolve(f)), Files.readString(four.resolve(f)), f);
        }
        Map<?, ?> s1 = (Map<?, ?>) Json.read(one.resolve("summary.json")), s4 = (Map<?, ?>) Json.read(four.resolve("summary.json"));
        assertEquals(s1.get("token_summary"), s4.get("token_summary"));
        assertEquals(s1.get("test_hard"), s4.get("test_hard"));
    }

    @Test
    void backgroundEvaluationChangesNothingButTheWallTime() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path on = tmp.resolve("bg-on"), off = tmp.resolve("bg-off");
        Map<String, Object> cOn = TrainerEndToEndTest.baseConfig(skill, 2), cOff = TrainerEndToEndTest.baseConfig(skill, 2);
        for (Map<String, Object> c : List.of(cOn, cOff)) {
            c.put("num_epochs", 3);
            c.put("use_slow_update", true);
            c.put("use_meta_skill", true);
        }
        cOff.put("background_eval", false);
        TrainerEndToEndTest.trainer(cOn, on, 2, null).train();
        TrainerEndToEndTest.trainer(cOff, off, 2, null).train();

        assertEquals(TrainerResumeTest.timeless(off), TrainerResumeTest.timeless(on), "step records, incl. per-step tokens");
        assertEquals(files(off), files(on));
        for (String f : files(off)) {
            if (f.endsWith("results.jsonl")) {
                assertEquals(Files.readAllLines(off.resolve(f)).stream().sorted().toList(),
                        Files.readAllLines(on.resolve(f)).stream().sorted().toList(), f);
            }
        }
        assertTrue(Files.exists(on.resolve("slow_update/epoch_02/rollout_prev/results.jsonl")));
        Map<?, ?> sOn = (Map<?, ?>) Json.read(on.resolve("summary.json")), sOff = (Map<?, ?>) Json.read(off.resolve("summary.json"));
        for (String k : List.of("token_summary", "baseline_test_hard", "test_hard", "final_test_hard", "best_step")) {
            assertEquals(sOff.get(k), sOn.get(k), k);
        }
    }
}
