package io.skillopt4j.backend;

import io.skillopt4j.BudgetExceeded;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** A worker's calls under a share of the run's cap, reported to and charged by the coordinator's ledger. */
class CostReportTest {
    private static final PriceTable PRICES = PriceTable.of(Map.of("m", Map.of("prompt", 2.0, "completion", 10.0)), "test");

    private static ChatModel fixed(Usage u) {
        return new ChatModel() {
            @Override public ChatResponse chat(ChatRequest r) { return ChatResponse.of("ok", u); }
            @Override public String model() { return "m"; }
            @Override public String backend() { return "openai_compatible"; }
        };
    }

    private static ChatRequest request() {
        return ChatRequest.builder().user("hello").maxCompletionTokens(100).stage("rollout").build();
    }

    @Test void aWorkersCallsGoToItsReportUnderItsShareNotToTheWorkersLedger() {
        CostLedger worker = CostLedger.capped(PRICES, 100.0); // the worker's own ledger (its config's cap): bypassed
        ChatModel m = new BudgetedChatModel(fixed(Usage.of(5, 10)), "target", worker);
        double worst = PRICES.worstCase("m", CostLedger.promptTokensUpperBound(request()), 100);
        double actual = (5 * 2.0 + 10 * 10.0) / 1e6;
        CostReport report = new CostReport(worst + 1.5 * actual); // room for a call's worst case after one call, not two
        CostReport.during(report, () -> { m.chat(request()); return m.chat(request()); });
        assertEquals(2, report.entries().size());
        assertEquals(0, worker.entries().size(), "the worker's ledger records nothing");
        assertEquals(0.0, worker.spent());
        assertEquals(0.0, report.needed(), "every call fitted");
        // a third call's worst case no longer fits the share: a budget stop, and what the activity needed
        BudgetExceeded stop = assertThrows(BudgetExceeded.class, () -> CostReport.during(report, () -> m.chat(request())));
        assertEquals(worst, stop.reserved(), 1e-15);
        assertTrue(report.needed() > report.cap(), "needed " + report.needed() + " > share " + report.cap());
        assertEquals(2, report.entries().size(), "the refused call is not charged");
    }

    @Test void theCoordinatorChargesReportedEntriesUnderItsPhaseAndFreesTheShare() {
        CostLedger run = CostLedger.capped(PRICES, 1.0);
        run.phase("train");
        List<CostLedger.Reservation> shares = run.reserveShares(4, 0);
        assertEquals(4, shares.size());
        assertEquals(0.25, shares.get(0).usd(), 1e-12, "the room left, in equal shares");
        assertEquals(1.0, run.reserved(), 1e-12);
        CostReport report = new CostReport(shares.get(0).usd());
        CostReport.during(report, () -> new BudgetedChatModel(fixed(Usage.of(1000, 10)), "target", CostLedger.unbounded(PRICES)).chat(request()));
        List<Map<String, Object>> wire = report.toJson(); // as it travels in the activity's result
        CostLedger.inPhase("test", () -> { CostReport.chargeTo(run, shares.get(0), wire); return null; });
        assertEquals(1, run.entries().size());
        CostLedger.Entry e = run.entries().get(0);
        assertEquals("test", e.phase(), "the coordinator's phase, where the call belongs");
        assertEquals("target", e.role());
        assertEquals("rollout", e.stage());
        assertEquals("openai_compatible", e.backend());
        assertEquals(1000, e.promptTokens());
        assertEquals((1000 * 2.0 + 10 * 10.0) / 1e6, run.spent(), 1e-15);
        assertEquals(0.75, run.reserved(), 1e-12, "the charged share is freed");
        for (int k = 1; k < 4; k++) CostReport.chargeTo(run, shares.get(k), List.of()); // items that made no call
        assertEquals(0.0, run.reserved(), 1e-12);
    }

    @Test void sharesOfAtLeastWhatAStoppedItemNeededAreFewerAndTheRunStopsWhenNoneFits() {
        CostLedger run = CostLedger.capped(PRICES, 1.0);
        assertEquals(3, run.reserveShares(5, 0.3).size(), "three shares of at least $0.30 fit in $1");
        CostLedger other = CostLedger.capped(PRICES, 1.0);
        BudgetExceeded stop = assertThrows(BudgetExceeded.class, () -> other.reserveShares(2, 1.5));
        assertSame(stop, other.exhausted(), "later calls rethrow it");
        assertThrows(BudgetExceeded.class, () -> other.reserveShares(1, 0));
        assertEquals(1, CostLedger.unbounded(PRICES).reserveShares(1, 9.0).size(), "no cap: no limit");
    }
}
