package io.skillopt4j.run;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class RunPackageTest {
    @TempDir Path tmp;

    @Test
    void pathsUseUpstreamNames() {
        RunPaths p = new RunPaths(tmp);
        assertEquals(tmp.resolve("steps/step_0007"), p.step(7));
        assertEquals(tmp.resolve("skills/skill_v0012.md"), p.skill(12));
        assertEquals(tmp.resolve("slow_update/epoch_02"), p.slowUpdate(2));
        assertEquals(tmp.resolve("meta_skill/epoch_10"), p.metaSkill(10));
        assertEquals("minibatch_fail_003", RunPaths.minibatchTag(true, 3));
        assertEquals("minibatch_succ_000", RunPaths.minibatchTag(false, 0));
        assertEquals("a_b.c-d", RunPaths.safeId("__a / b.c-d!!"));
        assertEquals("item", RunPaths.safeId("///"));
        assertEquals(80, RunPaths.safeId("x".repeat(100)).length());
    }

    @Test
    void runtimeStateRoundTripsAndKeepsAGenuineZeroScore() {
        RuntimeState s = new RuntimeState(3, "/r/skills/skill_v0003.md", 0.0, "step_0002", "/r/best_skill.md", 0.0, 2, "step_0002", 3, 0.0, 0.1);
        Path f = tmp.resolve("runtime_state.json");
        AtomicFiles.writeJson(f, s);
        assertEquals(s, RuntimeState.read(f).orElseThrow());
        assertEquals(List.of("last_completed_step", "current_skill_path", "current_score", "current_origin", "best_skill_path",
                "best_score", "best_step", "best_origin", "scheduler_step", "baseline_selection_hard", "baseline_selection_soft"),
                new ArrayList<>(Json.parseObject(Json.compact(s)).keySet()), "upstream's field order, additions last");
        RuntimeState nulls = new RuntimeState(1, "a", -1.0, "initial_skill", "b", 0.25, 1, "step_0001", 1, null, null);
        for (RuntimeState x : List.of(s, nulls)) {
            assertEquals(Json.pretty(x), Json.pretty(x.toJson()), "toJson is Jackson's bean output, field for field");
        }
    }

    @Test
    void pythonRuntimeStateWithZeroScoreReRunsTheBaselineAsUpstream() throws Exception {
        Path f = tmp.resolve("runtime_state.json");
        Files.writeString(f, "{\"last_completed_step\": 4, \"current_skill_path\": \"/x/skills/skill_v0004.md\", \"current_score\": 0.0,"
                + " \"best_score\": 0.0, \"best_step\": 1}");
        RuntimeState s = RuntimeState.read(f).orElseThrow();
        assertEquals(-1.0, s.currentScore());
        assertEquals(-1.0, s.bestScore());
        assertEquals("step_0004", s.currentOrigin());
        assertEquals(4, s.schedulerStep(), "upstream resets the scheduler to the last step");
        Files.writeString(f, "[1, 2]");
        assertTrue(RuntimeState.read(f).isEmpty());
        assertTrue(RuntimeState.read(tmp.resolve("absent.json")).isEmpty());
    }

    @Test
    void aThrowingListenerIsIgnoredAndTheOthersStillHearTheEvent() {
        List<String> heard = new ArrayList<>();
        TrainingListener bad = new TrainingListener() {
            @Override public void stepStarted(TrainingEvent.StepStarted e) { throw new IllegalStateException("boom"); }
        };
        TrainingListener good = new TrainingListener() {
            @Override public void stepStarted(TrainingEvent.StepStarted e) { heard.add("step " + e.step()); }
            @Override public void tokens(TrainingEvent.TokensUsed e) { heard.add("tokens " + e.byStage().keySet()); }
        };
        TrainingListener all = TrainingListener.all(List.of(bad, good));
        all.on(new TrainingEvent.StepStarted(1, 1, 0, 4));
        all.stepStarted(new TrainingEvent.StepStarted(2, 1, 1, 4));
        all.on(new TrainingEvent.TokensUsed(2, Map.of("analyst", Map.of("calls", 1))));
        TrainingListener.NONE.on(new TrainingEvent.StepStarted(3, 1, 2, 4));
        assertEquals(List.of("step 1", "step 2", "tokens [analyst]"), heard);
    }

    @Test
    void writerAppendsJsonLinesWithPythonSeparators() throws Exception {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        w.jsonLine(w.paths().lrHistory(), Map.of("step", 1));
        w.jsonLine(w.paths().lrHistory(), Map.of("step", 2));
        assertEquals(List.of("{\"step\": 1}", "{\"step\": 2}"), Files.readAllLines(w.paths().lrHistory()));
        w.text(tmp.resolve("a/b.md"), "x");
        assertEquals("x", Files.readString(tmp.resolve("a/b.md")));
    }
}
