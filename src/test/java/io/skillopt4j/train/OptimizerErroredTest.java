package io.skillopt4j.train;

import io.skillopt4j.BackendException;
import io.skillopt4j.ErroredHalt;
import io.skillopt4j.backend.UsageMeter;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** A call whose backend failed after its retries is errored: analysts are counted, any other stage halts. */
class OptimizerErroredTest {
    private static Stages.Recording down() {
        return new Stages.Recording(r -> { throw new BackendException.Retriable("openai_compatible", 503, "HTTP 503 after 3 attempts", null); });
    }

    @Test void aFailedAnalystCallIsCountedAndFallsBackForTheStepToJudge() {
        UsageMeter meter = new UsageMeter();
        Optimizer o = new Optimizer(down(), () -> {}, false, meter);
        assertTrue(o.json("analyst", "minibatch_fail_000", "sys", "user").isEmpty());
        assertTrue(o.json("analyst", "minibatch_fail_001", "sys", "user").isEmpty());
        Optimizer.AnalystCounts c = o.takeAnalystCounts();
        assertEquals(2, c.calls());
        assertEquals(2, c.errored());
        assertTrue(c.firstReason().contains("HTTP 503"), c.firstReason());
        assertEquals(new Optimizer.AnalystCounts(0, 0, null), o.takeAnalystCounts(), "taken counts are reset");
        assertEquals(2L, meter.faultSummary().get("analyst").get("errored"));
        assertEquals(0L, meter.faultSummary().get("_total").get("fallbacks"), "an errored call is not counted as a fallback");
    }

    @Test void aFailedCallOfAnyOtherStageHaltsInsteadOfFallingBack() {
        UsageMeter meter = new UsageMeter();
        for (String stage : new String[] {"merge", "ranking", "rewrite", "slow_update", "meta_skill", "appendix_consolidate"}) {
            Optimizer o = new Optimizer(down(), () -> {}, false, meter);
            ErroredHalt e = assertThrows(ErroredHalt.class, () -> o.json(stage, stage, "sys", "user"));
            assertEquals(stage, e.stage());
            assertTrue(e.getMessage().startsWith("errored: 1 of 1 " + stage + " calls failed (first: Retriable: HTTP 503"),
                    e.getMessage());
            assertTrue(o.drainFallbacks().isEmpty(), "no fallback decision is recorded for " + stage);
        }
        assertEquals(6L, meter.faultSummary().get("_total").get("errored"));
    }

    @Test void anUnusableReplyIsStillSkillOptsFallbackAndCountedAsOne() {
        UsageMeter meter = new UsageMeter();
        Optimizer o = new Optimizer(new Stages.Recording(r -> "no json here"), () -> {}, false, meter);
        assertTrue(o.json("merge", "merge_0", "sys", "user").isEmpty());
        assertEquals("unparseable_reply", o.drainFallbacks().get(0).get("reason"));
        assertEquals(Map.of("retries", 0L, "give_ups", 0L, "fast_fails", 0L, "fallbacks", 1L, "errored", 0L), meter.faultSummary().get("merge"));
    }

    @Test void aConfigurationMistakeIsNotAnErroredCall() {
        Optimizer o = new Optimizer(new Stages.Recording(r -> { throw new io.skillopt4j.ConfigException("azure_openai_endpoint is not set"); }));
        assertThrows(io.skillopt4j.ConfigException.class, () -> o.text("merge", "sys", "user", 10, null, 1));
    }
}
