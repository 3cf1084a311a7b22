package io.skillopt4j.backend;

import io.skillopt4j.BudgetExceeded;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

class CostLedgerTest {
    private static final PriceTable PRICES = PriceTable.of(Map.of(
            "m", Map.of("prompt", 2.0, "cached", 0.5, "cache_write", 2.5, "completion", 10.0, "batch", 0.5)), "test");

    /** A model answering every call with fixed usage. */
    private static ChatModel fixed(Usage u, Billing b) {
        return new ChatModel() {
            @Override public ChatResponse chat(ChatRequest r) { return ChatResponse.of("ok", u).withBilling(b); }
            @Override public String model() { return "m"; }
        };
    }

    @Test void entryLineIsJacksonsSerialisationOfTheRecord() {
        for (CostLedger.Entry e : List.of(
                new CostLedger.Entry("train", "target", "rollout", "openai_compatible", "m", 120, 0, 0, 7, false, "table", 3.1e-4),
                new CostLedger.Entry("", "optimizer", "analyst", "claude", "x", 1, 2, 3, 4, true, "unpriced", null),
                new CostLedger.Entry("test", "target", "rollout", "", "m", 10, 5, 0, 2, false, "table", 0.0, 3),
                new CostLedger.Entry("p\"q", "r\u00e9", "s\n", "b", "m", Long.MAX_VALUE, 0, 0, 0, false, "reported", 12.5))) {
            assertEquals(io.skillopt4j.internal.Json.line(e), e.line(), "same line as the record's bean serializer");
        }
    }

    @Test void pricesPromptCachedCacheWriteOutputAndBatchRates() {
        Usage u = new Usage(1_000_000, 100_000, 0, 400_000, 100_000);
        assertEquals(0.5 * 2 + 0.4 * 0.5 + 0.1 * 2.5 + 0.1 * 10, PRICES.usd("m", u, false), 1e-9);
        assertEquals(PRICES.usd("m", u, false) * 0.5, PRICES.usd("m", u, true), 1e-9);
        assertNull(PRICES.usd("unknown-model", u, false), "unpriced is null, never 0");
        assertEquals((10 * 2.5 + 5 * 10) / 1e6, PRICES.worstCase("m", 10, 5), 1e-15, "worst case uses the highest input rate");
        assertNotNull(PriceTable.defaults().find("skillopt-sim"));
        assertNotNull(PriceTable.defaults().find("claude-sonnet-4-6"));
        assertEquals(0.5, PriceTable.defaults().find("gpt-4o-mini-2024-07-18").batch());
        for (int i = 0; i < 2; i++) { // the second look-up comes from the table's memo of prefix matches
            assertSame(PriceTable.defaults().find("gpt-4o-mini"), PriceTable.defaults().find("gpt-4o-mini-2024-07-18"), "longest prefix");
            assertNull(PriceTable.defaults().find("fake-target"), "no prefix: null, also when remembered");
        }
    }

    @Test void ledgerRecordsTablePricesReportedCostsReplaysAndUnpricedModels() {
        CostLedger l = CostLedger.unbounded(PRICES);
        l.phase("test");
        Usage u = Usage.of(1000, 100);
        new BudgetedChatModel(fixed(u, Billing.DIRECT), "target", l).chat("a");
        new BudgetedChatModel(fixed(u, Billing.BATCH), "target", l).chat("b");
        new BudgetedChatModel(fixed(u, Billing.REPLAYED), "target", l).chat("c");
        new BudgetedChatModel(fixed(u, Billing.reported(0.25)), "optimizer", l).chat("d");
        ChatModel unknown = new ChatModel() {
            @Override public ChatResponse chat(ChatRequest r) { return ChatResponse.of("ok", u); }
            @Override public String model() { return "nobody-prices-this"; }
        };
        new BudgetedChatModel(unknown, "target", l).chat("e");
        List<CostLedger.Entry> es = l.entries();
        assertEquals(List.of("table", "table", "replayed", "reported", "unpriced"), es.stream().map(CostLedger.Entry::pricing).toList());
        double direct = (1000 * 2.0 + 100 * 10.0) / 1e6;
        assertEquals(direct, es.get(0).usd(), 1e-12);
        assertEquals(direct / 2, es.get(1).usd(), 1e-12);
        assertTrue(es.get(1).batch());
        assertEquals(0.0, es.get(2).usd());
        assertNull(es.get(4).usd());
        assertEquals(direct * 1.5 + 0.25, l.spent(), 1e-12);
        assertEquals("test", es.get(0).phase());
    }

    @Test void aLedgerLineNamesCallsFirstAndOnlyForAMergedLine() {
        CostLedger.Entry one = new CostLedger.Entry("train", "target", "rollout", "sim", "m", 10, 2, 0, 5, false, "table", 0.25);
        assertEquals("{\"phase\": \"train\", \"role\": \"target\", \"stage\": \"rollout\", \"backend\": \"sim\", \"model\": \"m\","
                + " \"prompt_tokens\": 10, \"cached_tokens\": 2, \"cache_write_tokens\": 0, \"completion_tokens\": 5, \"batch\": false,"
                + " \"pricing\": \"table\", \"usd\": 0.25}", io.skillopt4j.internal.Json.line(one));
        CostLedger.Entry merged = new CostLedger.Entry("train", "target", "rollout", "sim", "m", 10, 2, 0, 5, true, "unpriced", null, 3);
        String line = io.skillopt4j.internal.Json.line(merged);
        assertTrue(line.startsWith("{\"calls\": 3, \"phase\": \"train\", ") && line.endsWith("\"pricing\": \"unpriced\", \"usd\": null}"), line);
        assertEquals(merged, CostLedger.Entry.fromJson(io.skillopt4j.internal.Json.parseObject(line)));
        assertEquals(one, CostLedger.Entry.fromJson(io.skillopt4j.internal.Json.parseObject(io.skillopt4j.internal.Json.line(one))));
    }

    @Test void capReservesTheWorstCaseBeforeEachCallAndStopsForGood() {
        CostLedger l = CostLedger.capped(PRICES, 0.05);
        ChatModel m = new BudgetedChatModel(fixed(Usage.of(1000, 1000), Billing.DIRECT), "target", l);
        ChatRequest req = ChatRequest.builder().user("x".repeat(100)).maxCompletionTokens(1000).build();
        int calls = 0;
        BudgetExceeded stop = null;
        while (stop == null) {
            try {
                m.chat(req);
                calls++;
            } catch (BudgetExceeded e) {
                stop = e;
            }
        }
        // each call costs 0.012 and reserves 0.01 + (100 + 16) * 2.5e-6; four fit under 0.05, a fifth could cross it
        assertEquals(4, calls);
        assertEquals(0.048, l.spent(), 1e-9);
        assertTrue(l.spent() + stop.reserved() > l.cap());
        assertTrue(stop.getMessage().startsWith("budget: stopped before the next model call: spent $0.0480 + reserved $0.0103"), stop.getMessage());
        assertThrows(BudgetExceeded.class, () -> m.chat(ChatRequest.builder().user("tiny").maxCompletionTokens(1).build()), "latched");
    }

    @Test void aCallThatDoesNotFitWaitsForCallsInFlightToSettle() throws Exception {
        CostLedger l = CostLedger.capped(PRICES, 0.05);
        CostLedger.Reservation first = l.reserve(0.03);
        AtomicReference<Object> second = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                second.set(l.reserve(0.03));
            } catch (Throwable e) {
                second.set(e);
            }
            done.countDown();
        });
        t.start();
        while (t.getState() != Thread.State.WAITING) Thread.onSpinWait();
        assertNull(second.get(), "waits while the first call may still free room");
        l.settle(first, "target", "rollout", "b", "m", ChatResponse.of("", Usage.of(1000, 0)));
        done.await();
        assertInstanceOf(CostLedger.Reservation.class, second.get());
        assertEquals(0.03, l.reserved(), 1e-12);
    }

    @Test void attachLoadsEarlierSessionsSoTheCapCoversTheWholeRun(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cost_ledger.jsonl");
        CostLedger a = CostLedger.unbounded(PRICES);
        a.attach(f);
        new BudgetedChatModel(fixed(Usage.of(1000, 1000), Billing.DIRECT), "target", a).chat("x");
        Files.writeString(f, Files.readString(f) + "{\"usd\": 0.5, \"pha", java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
        CostLedger b = CostLedger.capped(PRICES, 1.0);
        b.attach(f);
        assertEquals(0.012, b.spent(), 1e-12, "a torn last line is skipped");
        assertEquals(1, b.entries().size());
        assertEquals(0.988, b.left(), 1e-12);
    }

    @Test void theLedgerFileKeepsEveryLineAcrossCloseReattachAndARecreatedFolder(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run/cost_ledger.jsonl");
        CostLedger l = CostLedger.unbounded(PRICES);
        ChatModel m = new BudgetedChatModel(fixed(Usage.of(1000, 1000), Billing.DIRECT), "target", l);
        m.chat("before attaching");
        l.attach(f); // makes the folder; the call made before is written too
        m.chat("attached");
        assertEquals(2, Files.readAllLines(f).size());
        l.closeFile();
        m.chat("after close: reopened by path");
        assertEquals(3, Files.readAllLines(f).size());
        io.skillopt4j.internal.AtomicFiles.deleteTree(dir.resolve("run"));
        l.attach(f); // the same path again, after the folder was removed: later lines go to the new file
        m.chat("new folder"); // the folder is made again
        l.closeFile();
        List<String> lines = Files.readAllLines(f);
        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).contains("\"prompt_tokens\": 1000"), lines.get(0));
        assertEquals(4, l.entries().size());
    }

    @Test void promptUpperBoundCoversEveryByteAndConfigIsChecked() {
        ChatRequest r = ChatRequest.of("système", "user text");
        assertEquals(2 * CostLedger.MESSAGE_TOKENS + "système".getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 9,
                CostLedger.promptTokensUpperBound(r));
        assertNull(CostLedger.from(FlatConfig.of(Map.of("budget_usd", 0))).cap());
        assertEquals(2.5, CostLedger.from(FlatConfig.of(Map.of("budget_usd", "2.5"))).cap());
        ConfigException e = assertThrows(ConfigException.class, () -> CostLedger.from(FlatConfig.of(Map.of("budget_usd", "lots"))));
        assertTrue(e.getMessage().contains("budget_usd"), e.getMessage());
        FlatConfig unpriced = FlatConfig.of(Map.of("budget_usd", 1, "optimizer_backend", "openai_compatible", "target_backend", "openai_compatible",
                "optimizer_model", "mystery-model", "target_model", "skillopt-sim", "openai_compatible_base_url", "http://127.0.0.1:9/v1"));
        ConfigException u = assertThrows(ConfigException.class, () -> Backends.roles(unpriced, Map.of()));
        assertTrue(u.getMessage().contains("mystery-model") && u.getMessage().contains("price_table"), u.getMessage());
    }
}
