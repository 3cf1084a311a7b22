package io.skillopt4j.train;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The meta skill compares on the slow update's pairs whenever there are some, as upstream. */
class MetaSkillPairsTest {
    @TempDir Path tmp;

    private MetaSkill meta(Stages.Recording m) {
        RunWriter w = new RunWriter(new RunPaths(tmp));
        AtomicFiles.writeString(w.paths().skill(2), "# prev\n");
        // a Longitudinal that cannot roll anything out: building pairs here would fail the test
        Longitudinal none = new Longitudinal(Stages.settings(), null, null, w);
        return new MetaSkill(new Optimizer(m), none, w, Clock.systemUTC(), 2);
    }

    @Test
    void evenAnEmptyPairListFromTheSlowUpdateIsReusedWithoutNewRollouts() {
        Stages.Recording m = new Stages.Recording(r -> "{\"reasoning\": \"r\", \"meta_skill_content\": \"- keep\"}");
        assertEquals("write_meta_skill", meta(m).run(2, "# curr\n", new Longitudinal.Pairs(List.of(), List.of(), 0, 0)));
        String u = m.requests.get(0).lastUserText();
        assertTrue(u.contains("Total samples: 0\n- Improved (wrong→right): 0"), u);
        assertFalse(Files.exists(tmp.resolve("meta_skill/epoch_02/rollout_prev")));
    }

    @Test
    void afterAResumeTheSlowUpdatesStoredPairsAreReloaded() {
        Path slow = tmp.resolve("slow_update/epoch_02");
        Map<String, Object> pair = Map.of("id", "q1", "task", "Who?", "category", "regressed",
                "prev", Map.of("hard", 1, "soft", 1.0, "predicted_answer", "A", "fail_reason", ""),
                "curr", Map.of("hard", 0, "soft", 0.0, "predicted_answer", "B", "fail_reason", "EM=0: B"));
        AtomicFiles.writeJson(slow.resolve("comparison_pairs.json"), List.of(pair));
        List<Map<String, Object>> stored = SlowUpdate.storedPairs(slow);
        Longitudinal.Pairs reloaded = Longitudinal.reloaded(stored);
        Stages.Recording m = new Stages.Recording(r -> "{\"reasoning\": \"r\", \"meta_skill_content\": \"- keep\"}");
        meta(m).run(2, "# curr\n", reloaded);
        String u = m.requests.get(0).lastUserText();
        assertTrue(u.contains("- Regressed (right→wrong): 1") && u.contains("#### Task q1: Who?") && u.contains("- Current fail reason: EM=0: B"), u);
        assertNull(SlowUpdate.storedPairs(tmp.resolve("slow_update/epoch_03")), "no file: the meta skill samples its own");
        assertEquals(List.of(pair), Json.read(slow.resolve("comparison_pairs.json")));
    }
}
