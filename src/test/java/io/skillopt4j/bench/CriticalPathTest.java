package io.skillopt4j.bench;

import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The bench's phase model must account for every call the simulator saw, in upstream's order. */
class CriticalPathTest {
    @TempDir Path tmp;

    @Test void phasesCountEveryCallOfADemoRunIncludingSkippedStepsAndBackgroundRollouts() {
        Path cfgFile = RepoFiles.demoConfig();
        Path root = tmp.resolve("run");
        long requests;
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            SkillOpt.config(cfgFile).outRoot(root).set("env.skill_init", cfgFile.getParent().resolve("initial_skill.md").toString())
                    .set("train.num_epochs", 2).set("env.workers", 4).simulator(sim).train();
            requests = sim.requests();
        }
        List<CriticalPath.Phase> phases = CriticalPath.phases(root, 4, 4);
        assertEquals(requests, phases.stream().mapToLong(CriticalPath.Phase::calls).sum(), phases.toString());
        assertEquals("baseline selection", phases.get(0).name());
        assertEquals(40, phases.get(0).calls());
        assertEquals(10, phases.get(0).waves(), "40 calls on 4 workers");
        assertTrue(phases.stream().anyMatch(p -> p.name().equals("test_eval_baseline") && p.calls() == 120),
                "the background test evaluation is a phase of the sequential model");
        assertTrue(phases.stream().anyMatch(p -> p.name().equals("slow epoch_02 prev") && p.calls() > 0));
        assertTrue(phases.stream().anyMatch(p -> p.name().endsWith(" reflect") && p.calls() > 0));
    }
}
