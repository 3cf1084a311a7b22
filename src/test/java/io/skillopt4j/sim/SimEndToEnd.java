package io.skillopt4j.sim;

import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.train.TrainingResult;

import java.nio.file.Path;

/** Test fixture: the demo config run by the real trainer through the openai_compatible backend against a SimServer. */
final class SimEndToEnd {
    private SimEndToEnd() {}

    static SkillOpt demoConfig(Path outRoot, String... overrides) {
        return SkillOpt.config("configs/demo/default.yaml").cfgOptions(overrides).outRoot(outRoot);
    }

    static TrainingResult train(SimServer sim, SkillOpt setup, Path outRoot) {
        return setup.simulator(sim).outRoot(outRoot).trainer().train();
    }
}
