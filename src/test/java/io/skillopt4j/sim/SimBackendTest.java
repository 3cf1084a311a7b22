package io.skillopt4j.sim;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseRulesBenchmark;
import io.skillopt4j.env.houserules.HouseTasks;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The simulator as the project's own openai_compatible backend sees it, including recovery from injected faults. */
class SimBackendTest {
    private static ModelRoles roles(SimServer sim) {
        FlatConfig cfg = FlatConfig.of(Map.of("optimizer_backend", "openai_compatible", "target_backend", "openai_compatible",
                "optimizer_model", "skillopt-sim", "target_model", "skillopt-sim",
                "retry_backoff_base_ms", 1, "retry_backoff_cap_ms", 5));
        return Backends.roles(cfg, Map.of("OPENAI_COMPATIBLE_BASE_URL", sim.url(), "OPENAI_COMPATIBLE_API_KEY", "sk-test"));
    }

    private static ChatRequest task(int i, Duration timeout) {
        HouseCategory c = HouseCategory.values()[i % 10];
        String skill = Prompts.SKILL + "- " + c.rule() + "\n";
        return ChatRequest.builder().system(HouseRulesBenchmark.systemPrompt(skill)).user(Prompts.question(c, 100 + i))
                .stage("rollout").retries(8).timeout(timeout).build();
    }

    @Test void backendGetsAnswersAndUsageFromTheSimulator() {
        try (SimServer sim = SimServer.builder().seed(1).behaviour(SimBehaviour.perfect()).start()) {
            ModelRoles r = roles(sim);
            ChatResponse resp = r.target().chat(task(0, null));
            String q = Prompts.question(HouseCategory.DATE, 100);
            assertTrue(resp.text().endsWith("<answer>" + HouseTasks.answer(HouseCategory.DATE, q, HouseCategory.Style.HOUSE).orElseThrow() + "</answer>"), resp.text());
            assertTrue(resp.usage().promptTokens() > 50 && resp.usage().completionTokens() > 5, resp.usage().toString());
            assertEquals(1L, r.usage().byStage().get("rollout").calls());
            assertTrue(r.optimizer().chat("Say hi").contains("deterministic stand-in"));
        }
    }

    @Test void backendRetriesThroughRateLimitsServerErrorsAndTimeouts() {
        Faults f = new Faults(0.15, 0.15, 0.05, 0, 0, 0, Duration.ofSeconds(3));
        try (SimServer sim = SimServer.builder().seed(2).faults(f).start()) {
            ModelRoles r = roles(sim);
            for (int i = 0; i < 30; i++) assertTrue(r.target().chat(task(i, Duration.ofMillis(800))).text().contains("<answer>"));
            Map<Faults.Kind, Long> injected = sim.faultsInjected();
            assertTrue(injected.keySet().containsAll(java.util.List.of(Faults.Kind.RATE_LIMIT, Faults.Kind.SERVER_ERROR,
                    Faults.Kind.TIMEOUT)), injected.toString());
            assertTrue(sim.requests() > 30, "retries reach the server: " + sim.requests());
            assertEquals(30L, r.usage().byStage().get("rollout").calls(), "only successful attempts are metered");
        }
    }

    @Test void backendRetriesThroughMalformedAndTruncatedBodies() {
        Faults f = Faults.none().withMalformed(0.2).withTruncated(0.2);
        try (SimServer sim = SimServer.builder().seed(3).faults(f).start()) {
            ModelRoles r = roles(sim);
            for (int i = 0; i < 20; i++) assertTrue(r.target().chat(task(i, null)).text().contains("<answer>"));
            Map<Faults.Kind, Long> injected = sim.faultsInjected();
            assertTrue(injected.getOrDefault(Faults.Kind.MALFORMED, 0L) > 0 && injected.getOrDefault(Faults.Kind.TRUNCATED, 0L) > 0,
                    injected.toString());
            assertEquals(20L, r.usage().byStage().get("rollout").calls());
        }
    }

    /** A body that stays unusable on every attempt surfaces as one error naming the backend. */
    @Test void malformedOrTruncatedBodiesReachTheCallerAsABackendErrorNamingTheBackend() {
        for (Faults f : java.util.List.of(Faults.none().withMalformed(1.0), Faults.none().withTruncated(1.0)))
            try (SimServer sim = SimServer.builder().faults(f).start()) {
                var e = assertThrows(io.skillopt4j.BackendException.class, () -> roles(sim).target().chat(task(0, null)));
                assertTrue(e.getMessage().startsWith("openai_compatible: "), e.getMessage());
            }
    }
}
