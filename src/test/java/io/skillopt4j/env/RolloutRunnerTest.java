package io.skillopt4j.env;

import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RolloutRunnerTest {
    @TempDir Path tmp;

    private static List<Item> items(int n) {
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(new Item("i" + i, Map.of("n", i)));
        return out;
    }

    private static RolloutRequest request(List<Item> items, Path dir) {
        return new RolloutRequest(new BatchSpec("eval", "val", 42, items), "skill", dir, false);
    }

    private static RolloutRunner.Outcome ok(Item item) {
        RolloutResult r = new RolloutResult(item.id(), 1, 1, Map.of("agent_ok", true));
        return new RolloutRunner.Outcome(r, List.of(Map.of("type", "message", "content", "hi " + item.id())), "SYS", "USER " + item.id(), Map.of());
    }

    @Test
    void results_come_back_in_batch_order_with_artifacts_even_when_items_finish_out_of_order() throws Exception {
        List<Item> items = items(6);
        List<Integer> progress = new CopyOnWriteArrayList<>();
        List<RolloutResult> rs = RolloutRunner.builder().workers(3).progress((d, t, r) -> progress.add(d)).build()
                .run(request(items, tmp), (item, ctx) -> {
                    Thread.sleep(5L * (6 - item.fields().get("n").hashCode()));
                    return ok(item);
                });
        assertEquals(List.of("i0", "i1", "i2", "i3", "i4", "i5"), rs.stream().map(RolloutResult::id).toList());
        assertEquals(List.of(1, 2, 3, 4, 5, 6), progress);
        assertEquals(6, Files.readAllLines(tmp.resolve("results.jsonl")).size());
        assertEquals(List.of(Map.of("type", "message", "content", "hi i3")), Json.read(tmp.resolve("predictions/i3/conversation.json")));
        assertEquals("USER i3", Files.readString(tmp.resolve("predictions/i3/target_user_prompt.txt")));
        assertEquals("SYS", Files.readString(tmp.resolve("predictions/i3/target_system_prompt.txt")));
    }

    @Test
    void a_success_row_always_carries_fail_reason_and_a_failure_keeps_its_own() throws Exception {
        List<RolloutResult> rs = RolloutRunner.builder().workers(1).abortWhenAllFail(false).build()
                .run(request(items(2), tmp), (item, ctx) -> item.id().equals("i0") ? ok(item)
                        : RolloutRunner.Outcome.of(new RolloutResult(item.id(), 0, 0, Map.of("agent_ok", true)), List.of()));
        assertEquals("", rs.get(0).fields().get("fail_reason"));
        assertFalse(rs.get(1).fields().containsKey("fail_reason"), "upstream's step buffer groups a reason-less failure as unknown");
        List<String> lines = Files.readAllLines(tmp.resolve("results.jsonl"));
        Map<?, ?> row0 = lines.stream().map(Json::parseObject).filter(m -> "i0".equals(m.get("id"))).findFirst().orElseThrow();
        assertEquals("", row0.get("fail_reason"));
    }

    @Test
    void a_rerun_reuses_finished_ids_and_tolerates_a_torn_last_line() throws Exception {
        Files.writeString(tmp.resolve("results.jsonl"),
                "{\"id\": \"i0\", \"hard\": 1, \"soft\": 0.5, \"agent_ok\": true}\n{\"id\": \"i1\", \"hard\": 1, \"so");
        AtomicInteger calls = new AtomicInteger();
        List<RolloutResult> rs = RolloutRunner.builder().workers(2).build().run(request(items(3), tmp), (item, ctx) -> {
            calls.incrementAndGet();
            assertFalse(item.id().equals("i0"));
            return ok(item);
        });
        assertEquals(2, calls.get());
        assertEquals(0.5, rs.get(0).soft());
        assertEquals(3, RolloutRunner.readResults(tmp.resolve("results.jsonl")).size());
        for (String line : Files.readAllLines(tmp.resolve("results.jsonl"))) {
            assertDoesNotThrow(() -> io.skillopt4j.internal.Json.mapper().readTree(line), "the torn line was cut, not kept: " + line);
        }
    }

    @Test
    void a_slow_item_becomes_a_timeout_row_and_an_exception_an_errored_row() {
        List<Item> items = items(3);
        List<RolloutResult> rs = RolloutRunner.builder().workers(3).itemTimeout(Duration.ofMillis(300)).build()
                .run(request(items, tmp), (item, ctx) -> {
                    if (item.id().equals("i1")) Thread.sleep(20_000);
                    if (item.id().equals("i2")) throw new IllegalStateException("boom");
                    return ok(item);
                });
        assertEquals(1.0, rs.get(0).hard());
        assertEquals("task-timeout-0s", rs.get(1).failReason());
        assertEquals("timeout", rs.get(1).str("phase"));
        assertEquals(false, rs.get(1).fields().get("agent_ok"));
        assertEquals("errored: IllegalStateException: boom", rs.get(2).failReason());
        assertEquals("error", rs.get(2).str("phase"));
        assertTrue(rs.get(2).isErrored());
        assertEquals(java.util.Set.of("i0", "i1"), RolloutRunner.readResults(tmp.resolve("results.jsonl")).keySet(), "the errored row is not a result");
        assertEquals(java.util.Set.of("i2"), RolloutRunner.readResults(tmp.resolve(RolloutRunner.ERRORED_FILE)).keySet());
    }

    @Test
    void an_item_whose_backend_failed_is_errored_never_stored_as_finished_and_runs_again() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        RolloutRunner.ItemTask down = (item, ctx) -> {
            calls.incrementAndGet();
            throw new BackendException("openai_compatible", 0, "connection refused: 127.0.0.1:1", null);
        };
        List<RolloutResult> rs = RolloutRunner.builder().workers(2).build().run(request(items(3), tmp), down);
        assertTrue(rs.stream().allMatch(RolloutResult::isErrored), "no systemic-failure abort: the caller judges errored rows");
        assertEquals("errored: connection refused: 127.0.0.1:1", rs.get(0).failReason());
        assertEquals(Map.of(), RolloutRunner.readResults(tmp.resolve("results.jsonl")));
        assertEquals(3, Files.readAllLines(tmp.resolve(RolloutRunner.ERRORED_FILE)).size());
        List<RolloutResult> again = RolloutRunner.builder().workers(2).build().run(request(items(3), tmp), (item, ctx) -> {
            calls.incrementAndGet();
            return ok(item);
        });
        assertEquals(6, calls.get(), "every errored item is attempted again");
        assertTrue(again.stream().noneMatch(RolloutResult::isErrored));
        assertEquals(3, RolloutRunner.readResults(tmp.resolve("results.jsonl")).size());
    }

    @Test
    void error_rows_an_older_version_stored_as_finished_are_attempted_again() throws Exception {
        Files.writeString(tmp.resolve("results.jsonl"), "{\"id\": \"i0\", \"hard\": 0, \"soft\": 0, \"fail_reason\": "
                + "\"unexpected: BackendException: connection refused\", \"phase\": \"error\", \"agent_ok\": false}\n"
                + "{\"id\": \"i1\", \"hard\": 1, \"soft\": 1, \"agent_ok\": true}\n");
        List<String> ran = new CopyOnWriteArrayList<>();
        List<RolloutResult> rs = RolloutRunner.builder().workers(1).build().run(request(items(2), tmp), (item, ctx) -> {
            ran.add(item.id());
            return ok(item);
        });
        assertEquals(List.of("i0"), ran);
        assertEquals(1.0, rs.get(0).hard());
    }

    @Test
    void every_row_failing_at_the_agent_level_aborts_the_batch() {
        BackendException e = assertThrows(BackendException.class, () -> RolloutRunner.builder().build()
                .run(request(items(2), tmp), (item, ctx) -> RolloutRunner.Outcome.of(new RolloutResult(item.id(), 0, 0,
                        Map.of("agent_ok", false, "fail_reason", "agent crashed")), List.of())));
        assertTrue(e.getMessage().contains("agent crashed"), e.getMessage());
    }

    @Test
    void ids_with_slashes_get_safe_folder_names() {
        assertEquals("a_b", RolloutRunner.safeId("a/b"));
        assertEquals("train:0001", RolloutRunner.safeId("train:0001"));
        assertEquals("_..", RolloutRunner.safeId(".."));
        assertEquals("a_b_c_d", RolloutRunner.safeId("a\\b\tc\u0000d"), "backslashes and control characters too");
    }

    @Test
    void past_the_errored_limit_no_further_item_starts_and_the_rollout_stops_once_those_in_flight_settle() throws Exception {
        // a provider that is down: i0 and i1 (in flight together) fail; a run stopping anyway starts none of i2..i7
        List<String> startedIds = new CopyOnWriteArrayList<>();
        RolloutRunner runner = RolloutRunner.builder().workers(2).build();
        RolloutRequest req = request(items(8), tmp).withErroredLimit(0);
        io.skillopt4j.ErroredHalt halt = assertThrows(io.skillopt4j.ErroredHalt.class, () -> runner.run(req, (item, ctx) -> {
            startedIds.add(item.id());
            Thread.sleep(50);
            throw new BackendException("target", 500, "the provider answered 500", null);
        }));
        assertEquals(List.of("i0", "i1"), startedIds.stream().sorted().toList(), "only the first wave ran");
        assertEquals("rollout", halt.stage());
        assertEquals(2, halt.errored());
        assertEquals(8, halt.total());
        assertTrue(halt.getMessage().contains("the provider answered 500"), halt.getMessage());
        assertEquals(2, Files.readAllLines(tmp.resolve(RolloutRunner.ERRORED_FILE)).size(), "the errored rows are kept");
        assertFalse(Files.exists(tmp.resolve("results.jsonl")) && !Files.readString(tmp.resolve("results.jsonl")).isBlank(),
                "nothing is stored as finished");

        // healed, the same request resumes: every item runs, none is reused from the stopped attempt
        startedIds.clear();
        List<RolloutResult> rs = runner.run(req, (item, ctx) -> {
            startedIds.add(item.id());
            return ok(item);
        });
        assertEquals(8, startedIds.size());
        assertTrue(rs.stream().noneMatch(RolloutResult::isErrored));
    }

    @Test
    void without_a_limit_and_below_it_every_item_runs() throws Exception {
        for (RolloutRequest req : List.of(request(items(6), tmp.resolve("none")), request(items(6), tmp.resolve("two")).withErroredLimit(2))) {
            AtomicInteger calls = new AtomicInteger();
            List<RolloutResult> rs = RolloutRunner.builder().workers(1).build().run(req, (item, ctx) -> {
                calls.incrementAndGet();
                if (item.id().equals("i0") || item.id().equals("i3")) throw new BackendException("target", 500, "down", null);
                return ok(item);
            });
            assertEquals(6, calls.get(), req.outDir().toString());
            assertEquals(2, rs.stream().filter(RolloutResult::isErrored).count());
        }
    }
    @Test
    void an_item_whose_task_fails_with_its_own_interrupt_flag_set_is_errored_and_the_rollout_ends() {
        // a library that re-asserts the interrupt after its own timeout (no one cancelled the item), or throws InterruptedException
        List<RolloutResult> rs = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> RolloutRunner.builder().workers(2).build()
                .run(request(items(3), tmp), (item, ctx) -> {
                    if (item.id().equals("i0")) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("read timed out");
                    }
                    if (item.id().equals("i1")) throw new InterruptedException("wait abandoned");
                    return ok(item);
                }));
        assertEquals("errored: IllegalStateException: read timed out", rs.get(0).failReason());
        assertEquals("errored: InterruptedException: wait abandoned", rs.get(1).failReason());
        assertEquals(1.0, rs.get(2).hard());
        assertEquals(java.util.Set.of("i0", "i1"), RolloutRunner.readResults(tmp.resolve(RolloutRunner.ERRORED_FILE)).keySet(),
                "their rows are written although the flag was set");
        assertFalse(Thread.currentThread().isInterrupted());
    }
    @Test
    void an_item_stopped_by_the_budget_gets_no_row_even_when_its_wall_limit_passes_while_others_run() {
        assertThrows(io.skillopt4j.BudgetExceeded.class, () -> RolloutRunner.builder().workers(2).itemTimeout(Duration.ofMillis(300)).build()
                .run(request(items(2), tmp), (item, ctx) -> {
                    if (item.id().equals("i0")) throw new io.skillopt4j.BudgetExceeded(1.0, 0.5, 1.2);
                    Thread.sleep(20_000);
                    return ok(item);
                }));
        assertEquals(java.util.Set.of("i1"), RolloutRunner.readResults(tmp.resolve("results.jsonl")).keySet(),
                "only the slow item is cut off; the stopped one runs again when the folder resumes");
    }
}
