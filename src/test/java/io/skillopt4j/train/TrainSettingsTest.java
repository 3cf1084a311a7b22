package io.skillopt4j.train;

import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.FlagSpec;
import io.skillopt4j.config.Flags;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class TrainSettingsTest {
    @Test
    void aZeroMinimumEditBudgetStaysZero() {
        assertEquals(0, Stages.settings("min_edit_budget", 0).minEditBudget());
        assertEquals(2, Stages.settings().minEditBudget(), "absent: upstream's cfg.get(..., 2)");
        EditBudgetSchedule s = new EditBudgetSchedule("linear", 4, 0, 4);
        assertEquals(List.of(3, 2, 1, 0), List.of(s.next(), s.next(), s.next(), s.next()));
    }

    @Test
    void jsonReaskIsOffByDefaultAndOnlyThenAsksTheBackendForJson() {
        assertFalse(Stages.settings().jsonReask());
        assertTrue(Stages.settings("json_reask", true).jsonReask());
        Stages.Recording m = new Stages.Recording(r -> "no json here");
        new Optimizer(m).json("merge", "x", "sys", "user");
        new Optimizer(m, () -> {}, true).json("merge", "x", "sys", "user");
        List<Boolean> required = m.requests.stream().map(ChatRequest::jsonRequired).toList();
        assertEquals(List.of(false, true), required, "json_reask lets the backend re-ask; off keeps SkillOpt's one call");
    }

    @Test
    void claudeTraceAndJsonReaskAreRealConfigKeysWithFlags() {
        for (String key : List.of("claude_trace_to_optimizer", "json_reask")) {
            FlagSpec f = Flags.byKey(key).orElseThrow();
            assertEquals("model." + key, f.path());
            assertEquals(key, f.flag());
            assertTrue(f.ours());
        }
        FlatConfig cfg = ConfigResolver.system().resolve(new ConfigRequest(null, Map.of("model", Map.of("claude_trace_to_optimizer", false,
                "json_reask", true, "target_backend", "claude_code_exec")), List.of(), Map.of(), false)).flat();
        assertEquals(false, cfg.get("claude_trace_to_optimizer"));
        TrainSettings s = TrainSettings.from(cfg);
        assertFalse(s.claudeTrace(), "model.claude_trace_to_optimizer: false turns the trace off");
        assertTrue(s.jsonReask());
        assertTrue(TrainSettings.from(FlatConfig.of(Map.of("target_backend", "claude_code_exec"))).claudeTrace(), "default on");
    }
}
