package io.skillopt4j.backend;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class UsageMeterFaultsTest {
    @Test void faultsAreCountedPerStageAndKindWithATotal() {
        UsageMeter m = new UsageMeter();
        m.recordFault("target", "rollout", "retries");
        m.recordFault("target", "rollout", "retries");
        m.recordFault("judge", "rollout", "errored");
        m.recordFault("optimizer", "reflect", "give_ups");
        Map<String, Map<String, Long>> s = m.faultSummary();
        assertEquals(java.util.List.of("reflect", "rollout", "_total"), java.util.List.copyOf(s.keySet()));
        assertEquals(2L, s.get("rollout").get("retries"));
        assertEquals(1L, s.get("rollout").get("errored"));
        assertEquals(0L, s.get("rollout").get("fallbacks"));
        assertEquals(1L, s.get("reflect").get("give_ups"));
        assertEquals(Map.of("retries", 2L, "give_ups", 1L, "fast_fails", 0L, "fallbacks", 0L, "errored", 1L), s.get("_total"));
    }

    @Test void anEmptyMeterHasOnlyAZeroTotal() {
        Map<String, Map<String, Long>> s = new UsageMeter().faultSummary();
        assertEquals(java.util.Set.of("_total"), s.keySet());
        assertTrue(s.get("_total").values().stream().allMatch(n -> n == 0L));
    }

    @Test void anUnknownKindIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new UsageMeter().recordFault("target", "rollout", "oops"));
    }

    @Test void faultsRespectTheHoldAndTravelWithAddAndJson() {
        UsageMeter meter = new UsageMeter();
        UsageMeter hold = new UsageMeter();
        UsageMeter.heldIn(hold, () -> { meter.recordFault("target", "rollout", "fallbacks"); return null; });
        assertEquals(0L, meter.faultSummary().get("_total").get("fallbacks"));
        assertEquals(1L, hold.faultSummary().get("_total").get("fallbacks"));

        UsageMeter copy = UsageMeter.fromJson(hold.toJson());
        assertEquals(hold.faultSummary(), copy.faultSummary());
        meter.add(hold);
        assertEquals(1L, meter.faultSummary().get("rollout").get("fallbacks"));
        assertEquals(0L, hold.faultSummary().get("_total").get("fallbacks"));
        meter.absorb(copy);
        assertEquals(2L, meter.faultSummary().get("rollout").get("fallbacks"));
    }
}
