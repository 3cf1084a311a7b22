package io.skillopt4j.backend;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The counting rule of token_usage.jsonl, call by call, over two sessions of one run folder. */
class UsageJournalTest {
    @TempDir Path run;

    private static final Usage TEN = new Usage(10, 2, 12, 0, 0);

    private static ChatRequest request(String stage, String text) {
        return ChatRequest.builder().user(text).stage(stage).build();
    }

    private static void item(UsageMeter m, Path dir, int calls) throws Exception {
        UsageMeter.keyed(dir.toString(), () -> {
            for (int i = 0; i < calls; i++) m.record("target", "rollout", "t", TEN, Duration.ZERO);
            return null;
        });
    }

    private static long calls(Map<String, Object> summary, String stage) {
        return ((Number) ((Map<?, ?>) summary.get(stage)).get("calls")).longValue();
    }

    @Test
    void onlyTheLastAttemptAtEachResultCountsAcrossSessions() throws Exception {
        Path file = run.resolve(UsageJournal.FILE);
        Path a = run.resolve("steps/step_0001/rollout/predictions/a"), b = run.resolve("steps/step_0001/rollout/predictions/b");

        UsageMeter first = new UsageMeter();
        first.attachJournal(file);
        item(first, a, 2);                       // a two-turn item whose row was stored
        item(first, b, 1);                       // an item whose row a kill lost
        item(first, b, 1);                       // ... run again in the same session (a dropped rollout started ahead)
        first.record("optimizer", "analyst", "o", TEN, Duration.ZERO, request("analyst", "minibatch 0"));
        first.record("optimizer", "analyst", "o", TEN, Duration.ZERO, request("analyst", "minibatch 1")); // its patch was lost
        first.detachJournal();
        Map<String, Object> s1 = first.stageSummary();
        assertEquals(4, calls(s1, "rollout"), "the meter counts every call of its session");

        UsageMeter second = new UsageMeter();
        second.attachJournal(file);
        item(second, b, 1);                      // the lost row, redone
        second.record("optimizer", "analyst", "o", TEN, Duration.ZERO, request("analyst", "minibatch 1")); // the lost patch, redone
        second.record("optimizer", "merge", "o", TEN, Duration.ZERO, request("merge", "level 0"));
        UsageMeter remote = new UsageMeter();     // a worker's calls, replayed by an engine: always counted
        remote.record("optimizer", "ranking", TEN, Duration.ZERO);
        second.absorb(remote);

        Map<String, Object> kept = second.keptStageSummary();
        assertEquals(3, calls(kept, "rollout"), "a: 2 calls of its only attempt; b: 1 call of its last attempt");
        assertEquals(2, calls(kept, "analyst"), "minibatch 0 once, minibatch 1 once (the redone call)");
        assertEquals(1, calls(kept, "merge"));
        assertEquals(1, calls(kept, "ranking"));
        assertEquals(7, calls(kept, "_total"));
        assertEquals(3 * 10L, ((Number) ((Map<?, ?>) kept.get("rollout")).get("prompt_tokens")).longValue());
        second.detachJournal();

        // every call made is on file (6 + 4), keys relative to the run folder, and every line parses
        var lines = Json.readObjectLines(file);
        assertEquals(10, lines.stream().mapToLong(l -> ((Number) l.get("calls")).longValue()).sum());
        assertTrue(lines.stream().anyMatch(l -> "steps/step_0001/rollout/predictions/a".equals(l.get("key"))), lines.toString());
        assertTrue(Files.readString(file).endsWith("\n"));
    }

    @Test
    void withoutAJournalTheSummaryIsTheMetersOwn() {
        UsageMeter m = new UsageMeter();
        m.record("target", "rollout", "t", TEN, Duration.ZERO);
        assertEquals(m.stageSummary(), m.keptStageSummary());
    }

    @Test
    void aTornLastLineIsCutWhenTheJournalIsOpened() throws Exception {
        Path file = run.resolve(UsageJournal.FILE);
        Files.writeString(file, "{\"role\": \"target\", \"stage\": \"rollout\", \"calls\": 1}\n{\"role\": \"tar");
        UsageMeter m = new UsageMeter();
        m.attachJournal(file);
        m.record("target", "rollout", "t", TEN, Duration.ZERO);
        assertEquals(2, calls(m.keptStageSummary(), "rollout"));
        m.detachJournal();
        for (String line : Files.readAllLines(file)) assertDoesNotThrow(() -> Json.mapper().readTree(line), line);
    }
}
