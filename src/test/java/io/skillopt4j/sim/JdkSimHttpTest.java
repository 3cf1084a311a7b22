package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseRulesBenchmark;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDK-server variant the bench re-measures answers like ours (same handler, same bytes). */
class JdkSimHttpTest {
    @Test void theJdkServerServesTheSameReplies() throws Exception {
        String system = HouseRulesBenchmark.systemPrompt(Prompts.SKILL), q = Prompts.question(HouseCategory.DATE, 1);
        String ours;
        try (SimServer s = SimServer.builder().seed(3).start()) {
            ours = SimServerTest.post(s, SimServerTest.body(system, q), null).body();
        }
        System.setProperty("skillopt.sim.http", "jdk");
        SimServer jdk = null;
        try (SimServer s = SimServer.builder().seed(3).start()) {
            jdk = s;
            HttpResponse<String> r = SimServerTest.post(s, SimServerTest.body(system, q), null);
            assertEquals(200, r.statusCode());
            assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
            assertEquals(ours.replaceAll("\"(id|created)\":[^,]*,", ""), r.body().replaceAll("\"(id|created)\":[^,]*,", ""));
            assertEquals(1, s.requests());
        } finally {
            System.clearProperty("skillopt.sim.http");
        }
        // a call's span is added just after its flush, which can come after the client has read the reply: read the
        // counter once close() has returned, when it is final
        assertTrue(jdk.serverNanos() > 0);
    }
}
