package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The failure group's merge starts as soon as the failure analysts are done, while success analysts still run
 * (train.pipeline_stages): the run folder is the sequential run's, merge calls included.
 */
class EarlyFailureMergeTest {
    @TempDir Path tmp;

    /** Slow success analysts; counts failure merges sent while a success analyst was still in flight. */
    static final class SlowSuccessAnalysts implements ChatModel {
        final ScriptedOptimizer inner;
        final AtomicInteger successInFlight = new AtomicInteger(), mergesAlongside = new AtomicInteger(), failureMerges = new AtomicInteger();

        SlowSuccessAnalysts(UsageMeter meter) { inner = new ScriptedOptimizer(meter); }

        @Override public ChatResponse chat(ChatRequest req) {
            String u = req.lastUserText();
            boolean success = u.contains("## Successful Trajectories (");
            if (u.contains("## Patches to merge") && u.replace(" ", "").contains("\"source_type\":\"failure\"")) {
                failureMerges.incrementAndGet();
                if (successInFlight.get() > 0) mergesAlongside.incrementAndGet();
            }
            if (!success) return inner.chat(req);
            successInFlight.incrementAndGet();
            try {
                Thread.sleep(300);
                return inner.chat(req);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                successInFlight.decrementAndGet();
            }
        }
    }

    private SlowSuccessAnalysts train(Path skill, Path out, boolean pipelined) {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, 4);
        c.put("batch_size", 6);
        c.put("minibatch_size", 1);
        c.put("pipeline_stages", pipelined);
        UsageMeter meter = new UsageMeter();
        SlowSuccessAnalysts opt = new SlowSuccessAnalysts(meter);
        ModelRoles roles = new ModelRoles(opt, req -> { throw new AssertionError("the test bench never calls the target"); },
                Optional.empty(), meter);
        Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(c), "")).roles(roles).benchmark(new TestBench(12, 6, 6, 4, meter))
                .outRoot(out).build().train();
        return opt;
    }

    @Test void theFailureMergeOverlapsTheSuccessAnalystsAndTheRunFolderIsTheSequentialOne() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        SlowSuccessAnalysts seq = train(skill, tmp.resolve("sequential"), false);
        SlowSuccessAnalysts pip = train(skill, tmp.resolve("pipelined"), true);
        assertTrue(seq.failureMerges.get() > 0, "the workload merges failure patches");
        assertEquals(0, seq.mergesAlongside.get(), "sequential: the merge waits for every analyst");
        assertTrue(pip.mergesAlongside.get() > 0, "pipelined: a failure merge was sent while success analysts ran");
        assertEquals(seq.failureMerges.get(), pip.failureMerges.get(), "the same merge calls, none extra");
        assertEquals(List.of(), RunDiff.diff(tmp.resolve("sequential"), tmp.resolve("pipelined")));
        assertEquals(TrainerResumeTest.timeless(tmp.resolve("sequential")), TrainerResumeTest.timeless(tmp.resolve("pipelined")));
    }
}
