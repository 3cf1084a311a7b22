package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.backend.CostReport;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.RemoteItems;
import io.skillopt4j.env.SingleItemRollout;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.*;

/** The seam itself: an engine that runs every item one by one in scratch folders writes the local engine's run. */
class EngineSeamTest {
    @TempDir Path tmp;

    @Test
    void anEngineRunningItemsAndCallsElsewhereWritesTheLocalRun() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path local = tmp.resolve("local"), remote = tmp.resolve("remote");
            EngineRuns.train(EngineRuns.config(local), local, sim.url(), null);
            AtomicInteger items = new AtomicInteger(), calls = new AtomicInteger();
            EngineRuns.train(EngineRuns.config(remote), remote, sim.url(), new ScratchEngine(tmp.resolve("scratch"), sim.url(), items, calls));

            assertEquals(List.of(), EngineRuns.diff(local, remote));
            assertTrue(items.get() > 50, "items ran through the engine: " + items);
            assertTrue(calls.get() > 10, "optimizer calls ran through the engine: " + calls);
        }
    }

    @Test
    void unknownEngineNamesTheKnownOnes() {
        var e = assertThrows(io.skillopt4j.ConfigException.class, () -> ExecutionEngine.named("ray"));
        assertTrue(e.getMessage().startsWith("engine.name must be one of local"), e.getMessage());
        assertSame(ExecutionEngine.local(), ExecutionEngine.named(""));
    }

    /** Runs each item alone through a second benchmark instance, as a worker would, and counts optimizer calls. */
    private record ScratchEngine(Path scratch, String simUrl, AtomicInteger items, AtomicInteger calls) implements ExecutionEngine.Factory {
        @Override public String name() { return "scratch"; }

        @Override public ExecutionEngine open(ExecutionEngine.RunContext run) {
            var roles = io.skillopt4j.backend.Backends.roles(run.config(), EngineRuns.simEnv(simUrl));
            Benchmark worker = Benchmarks.create(run.config().string("env", ""), new BenchmarkContext(run.config(), roles, scratch));
            RemoteItems remote = (request, list, sink) -> {
                UsageMeter used = new UsageMeter();
                List<CostLedger.Reservation> shares = run.ledger().reserveShares(list.size(), 0);
                CostReport[] reports = new CostReport[list.size()];
                IntStream.range(0, list.size()).parallel().forEach(k -> {
                    Path dir = scratch.resolve("item-" + items.incrementAndGet());
                    UsageMeter one = new UsageMeter();
                    CostReport cost = new CostReport(run.ledger().cap() == null ? null : shares.get(k).usd());
                    SingleItemRollout.Settled s = UsageMeter.heldIn(one, () -> CostReport.during(cost, () -> SingleItemRollout.run(worker,
                            request.batch(), list.get(k), request.skill(), request.evalFeedback(), dir)));
                    used.add(UsageMeter.fromJson(io.skillopt4j.internal.Json.parseObject(io.skillopt4j.internal.Json.compact(one.toJson()))));
                    reports[k] = cost;
                    sink.done(k, s.row(), s.artefacts());
                });
                // as the workers' results carry them: priced there, charged here on the rollout's thread, under its phase
                for (int k = 0; k < list.size(); k++) CostReport.chargeTo(run.ledger(), shares.get(k), reports[k].toJson());
                run.usage().absorb(used); // on the rollout's own thread, which a background rollout holds
            };
            return new ExecutionEngine() {
                @Override public String name() { return "scratch"; }
                @Override public ChatModel optimizer(ChatModel model) { return req -> { calls.incrementAndGet(); return model.chat(req); }; }
                @Override public RemoteItems rolloutItems() { return remote; }
                @Override public void close() { assertTrue(Files.isDirectory(scratch)); }
            };
        }
    }
}
