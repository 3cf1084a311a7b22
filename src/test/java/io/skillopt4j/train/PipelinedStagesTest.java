package io.skillopt4j.train;

import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pipelined stages (train.pipeline_stages) against the sequential order: same seed, same run folder. */
class PipelinedStagesTest {
    @TempDir Path tmp;

    private static Path train(Path skill, Path out, int workers, boolean pipelined, long optimizerDelayMs) {
        return train(skill, out, workers, pipelined, optimizerDelayMs, 2, 2);
    }

    private static Path train(Path skill, Path out, int workers, boolean pipelined, long optimizerDelayMs, int accumulation, int epochs) {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, workers);
        c.put("batch_size", 3);
        c.put("accumulation", accumulation);
        c.put("num_epochs", epochs);
        c.put("pipeline_stages", pipelined);
        UsageMeter meter = new UsageMeter();
        ScriptedOptimizer opt = new ScriptedOptimizer(meter);
        // a slow optimizer keeps batch 0's analysts in flight while batch 1 rolls out, so the orders really differ
        opt.delayMillis = optimizerDelayMs;
        ModelRoles roles = new ModelRoles(opt, req -> { throw new AssertionError("the test bench never calls the target"); },
                Optional.empty(), meter);
        Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(c), "")).roles(roles).benchmark(new TestBench(12, 6, 6, workers, meter))
                .outRoot(out).build().train();
        return out;
    }

    @Test void pipelinedAndSequentialOrdersWriteTheSameRunFolderAtAnyWorkerCount() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path sequential = train(skill, tmp.resolve("sequential-1"), 1, false, 0);
        Path pipelined4 = train(skill, tmp.resolve("pipelined-4"), 4, true, 5);
        Path pipelined1 = train(skill, tmp.resolve("pipelined-1"), 1, true, 5);

        assertTrue(Files.isDirectory(sequential.resolve("steps/step_0001/batch_1/patches")), "accumulation batches were written");
        assertEquals(List.of(), RunDiff.diff(sequential, pipelined4));
        assertEquals(List.of(), RunDiff.diff(sequential, pipelined1));
        // run_diff ignores tokens; the step records' token counts must agree as well
        assertEquals(tokens(sequential), tokens(pipelined4));
        assertEquals(TrainerResumeTest.timeless(sequential), TrainerResumeTest.timeless(pipelined4));
    }

    /**
     * Without accumulation the pipelined order still differs: step 1's rollout runs alongside the baseline, each next
     * step's rollout starts before the step before it is persisted, and the meta skill's call runs alongside the slow
     * update's (three epochs, so a meta skill is read back too).
     */
    @Test void rolloutsStartedAheadAndTheMetaSkillAlongsideTheSlowUpdateLeaveTheSequentialRunFolder() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path sequential = train(skill, tmp.resolve("sequential"), 1, false, 0, 1, 3);
        Path pipelined = train(skill, tmp.resolve("pipelined"), 4, true, 5, 1, 3);

        io.skillopt4j.run.RunPaths p = new io.skillopt4j.run.RunPaths(sequential);
        assertEquals("write_meta_skill", ((Map<?, ?>) Json.read(p.metaSkillResult(2))).get("action"), "the meta skill ran alongside the slow update");
        assertTrue(Files.isRegularFile(p.slowResult(3)), "three epochs ran");
        assertEquals(List.of(), RunDiff.diff(sequential, pipelined));
        assertEquals(tokens(sequential), tokens(pipelined));
        assertEquals(TrainerResumeTest.timeless(sequential), TrainerResumeTest.timeless(pipelined));
    }

    @Test void runDiffSeesADifferentRun() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path a = train(skill, tmp.resolve("a"), 2, true, 0);
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, 2);
        c.put("batch_size", 3);
        c.put("accumulation", 2);
        c.put("seed", 7);
        UsageMeter meter = new UsageMeter();
        ModelRoles roles = new ModelRoles(new ScriptedOptimizer(meter), req -> { throw new AssertionError(); }, Optional.empty(), meter);
        Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(c), "")).roles(roles).benchmark(new TestBench(12, 6, 6, 2, meter)).outRoot(tmp.resolve("b")).build().train();
        assertTrue(!RunDiff.diff(a, tmp.resolve("b")).isEmpty(), "another seed must differ");
    }

    private static Object tokens(Path run) {
        return ((Map<?, ?>) Json.read(run.resolve("summary.json"))).get("token_summary");
    }
}
