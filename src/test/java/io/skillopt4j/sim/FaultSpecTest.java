package io.skillopt4j.sim;

import io.skillopt4j.backend.Backoff;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.OpenAiCompatibleChatModel;
import io.skillopt4j.backend.UsageMeter;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The fault spec of {@code sim serve --faults} / {@code demo --sim-faults}, and the two connection faults. */
class FaultSpecTest {
    @Test void parsesEveryNameAndPrintsTheSameSpec() {
        Faults f = Faults.parse("429=0.1, 500=0.1,timeout=0.01,malformed=0.05,truncated=0.05,disconnect=0.02,close=0.03,retry_after=0");
        assertEquals(new Faults(0.1, 0.1, 0.01, 0.05, 0.05, 0.02, 0.03, 0, java.time.Duration.ofSeconds(30)), f);
        assertEquals(f, Faults.parse(f.toString()));
        assertEquals(Faults.none(), Faults.parse("none"));
        assertEquals(Faults.none(), Faults.parse(""));
        assertFalse(Faults.none().any());
    }

    @Test void badSpecsNameThePart() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Faults.parse("430=0.1")).getMessage().startsWith("unknown fault '430'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Faults.parse("429")).getMessage().contains("'429' is not NAME=RATE"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Faults.parse("500=lots")).getMessage().contains("'500=lots'"));
        assertThrows(IllegalArgumentException.class, () -> Faults.parse("429=0.6,500=0.6"));
    }

    @Test void droppedAndSilentlyClosedConnectionsAreRetriedUntilEveryCallSucceeds() {
        Faults f = Faults.none().withDisconnects(0.25).withCloses(0.25);
        try (SimServer sim = SimServer.builder().seed(4).faults(f).start()) {
            UsageMeter meter = new UsageMeter();
            ChatModel m = OpenAiCompatibleChatModel.builder().baseUrl(sim.url()).model("sim").backoff(Backoff.NONE).httpAttempts(10).meter(meter).build();
            for (int i = 0; i < 40; i++) assertFalse(m.chat(ChatRequest.builder().user("question " + i).stage("rollout").build()).text().isEmpty());
            Map<Faults.Kind, Long> injected = sim.faultsInjected();
            assertTrue(injected.getOrDefault(Faults.Kind.DISCONNECT, 0L) > 0 && injected.getOrDefault(Faults.Kind.CLOSE, 0L) > 0, injected.toString());
            Map<?, ?> total = (Map<?, ?>) meter.faultSummary().get("_total");
            assertTrue(total.get("retries") instanceof Number n && n.longValue() > 0, total.toString());
            assertTrue(!(total.get("give_ups") instanceof Number n) || n.longValue() == 0, total.toString());
        }
    }
}
