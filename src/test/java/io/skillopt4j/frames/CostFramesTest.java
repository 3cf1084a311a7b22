package io.skillopt4j.frames;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** run.cost(): sums per phase/role/stage, batch and cached shares, unpriced calls never counted as $0, the cap's remainder. */
class CostFramesTest {
    @Test void costFrameSumsTheLedgerAndKeepsUnpricedCallsApart(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("config.json"), "{\"budget_usd\": 1.0}");
        Files.writeString(run.resolve("cost_ledger.jsonl"), String.join("\n",
                "{\"phase\":\"test\",\"role\":\"target\",\"stage\":\"rollout\",\"prompt_tokens\":100,\"cached_tokens\":50,\"completion_tokens\":10,\"batch\":true,\"pricing\":\"table\",\"usd\":0.25}",
                "{\"phase\":\"test\",\"role\":\"target\",\"stage\":\"rollout\",\"prompt_tokens\":100,\"cached_tokens\":0,\"completion_tokens\":10,\"batch\":false,\"pricing\":\"table\",\"usd\":0.25}",
                "{\"phase\":\"train\",\"role\":\"optimizer\",\"stage\":\"analyst\",\"prompt_tokens\":10,\"cached_tokens\":0,\"completion_tokens\":1,\"batch\":false,\"pricing\":\"unpriced\",\"usd\":null}",
                "{\"phase\":\"train\",\"role\":\"optimizer\",\"stage\":\"anal"));   // torn last line
        Frame c = RunFrames.load(run).cost();
        assertEquals(3, c.rowCount(), c.toString());
        int test = c.stringColumn("phase").indexOf("test");
        assertEquals(2, c.longColumn("calls").getLong(test));
        assertEquals(0.5, c.doubleColumn("usd").getDouble(test), 1e-12);
        assertEquals(0.5, c.doubleColumn("batch_share").getDouble(test), 1e-12);
        assertEquals(0.25, c.doubleColumn("cached_share").getDouble(test), 1e-12);
        int train = c.stringColumn("phase").indexOf("train");
        assertTrue(c.doubleColumn("usd").isMissing(train), "unpriced is missing, not 0");
        assertEquals(1, c.longColumn("unpriced_calls").getLong(train));
        assertEquals("_total", c.stringColumn("phase").get(2));
        assertTrue(c.footer().startsWith("$0.5000 over 3 calls"), c.footer());
        assertTrue(c.footer().contains("1 unpriced calls (not in usd)") && c.footer().contains("cap $1.0000, left $0.5000"), c.footer());
    }
}
