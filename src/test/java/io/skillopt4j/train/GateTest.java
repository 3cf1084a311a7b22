package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

class GateTest {
    private static Gate gate(Map<String, Object> cfg) { return new Gate(TrainSettings.from(FlatConfig.of(cfg))); }

    @Test
    void acceptsOnlyStrictImprovements() {
        assertEquals("accept_new_best", Gate.decide(0.6, 0.5, 0.5).action());
        assertEquals("accept", Gate.decide(0.6, 0.5, 0.7).action());
        assertEquals("reject", Gate.decide(0.5, 0.5, 0.5).action());
        assertEquals("reject", Gate.decide(0.4, 0.5, 0.5).action());
        assertEquals("accept", Gate.decide(0.7, 0.5, 0.7).action(), "equal to best is not a new best");
    }

    @Test
    void scoresInTheConfiguredMetric() {
        assertEquals(1.0, gate(Map.of()).score(1.0, 0.2, ""));
        assertEquals(0.2, gate(Map.of("gate_metric", "soft")).score(1.0, 0.2, ""));
        assertEquals(0.6, gate(Map.of("gate_metric", "mixed", "gate_mixed_weight", 0.5)).score(1.0, 0.2, ""), 1e-12);
        assertEquals(0.84, gate(Map.of("gate_metric", "mixed", "gate_mixed_weight", 0.2)).score(1.0, 0.2, ""), 1e-12);
    }

    @Test
    void addsTheSemanticDensityBonusOutsideProtectedRegions() {
        String skill = "Always verify. " + SkillDocument.SLOW_START + " MUST MUST " + SkillDocument.SLOW_END;
        assertEquals(2.0 / 2, SkillDocument.density(skill, Set.of("always", "verify")), 1e-12);
        assertEquals(1.0 / 4, SkillDocument.density("You MUST check it", Set.of("must")), 1e-12);
        Gate g = gate(Map.of("use_semantic_density", true, "semantic_density_weight", 0.1));
        assertEquals(0.5 + 0.1 * 0.25, g.score(0.5, 0, "You MUST check it"), 1e-12);
        Gate custom = gate(Map.of("use_semantic_density", true, "leading_words", "check, it"));
        assertEquals(0.05 * 0.5, custom.score(0, 0, "You MUST check it"), 1e-12);
    }

    @Test
    void validatesGateKeys() {
        assertThrows(ConfigException.class, () -> gate(Map.of("gate_metric", "f1")));
        assertEquals("evaluation.gate_mixed_weight must be a number in [0, 1], got 1.5",
                assertThrows(ConfigException.class, () -> gate(Map.of("gate_mixed_weight", 1.5))).getMessage());
        assertFalse(TrainSettings.from(FlatConfig.of(Map.of("use_gate", false))).useGate());
        assertFalse(TrainSettings.from(FlatConfig.of(Map.of("use_gate", "false"))).useGate());
        assertTrue(TrainSettings.from(FlatConfig.of(Map.of("use_gate", 0))).useGate(), "only a literal false disables the gate");
    }
}
