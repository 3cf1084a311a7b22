package io.skillopt4j.notebook;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ConfigWarning;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The fluent builder fails loudly on user mistakes before any model call, and is immutable (issue #16 items 1, 2, 6). */
class SkillOptBuilderTest {
    private static final String DEMO = "configs/demo/default.yaml";

    @Test void aMistypedKeyFailsTrainWithDidYouMeanBeforeAnyModelCall(@TempDir Path tmp) {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path out = tmp.resolve("run");
            ConfigException e = assertThrows(ConfigException.class,
                    () -> SkillOpt.config(DEMO).set("train.num_epoch", 2).simulator(sim).outRoot(out).train());
            assertTrue(e.getMessage().contains("train.num_epoch") && e.getMessage().contains("did you mean train.num_epochs?"), e.getMessage());
            assertEquals(0, sim.requests(), "no model call");
            assertFalse(Files.exists(out), "no run folder");
        }
    }

    @Test void anUnknownSectionOfAMapFailsWithDidYouMean() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> SkillOpt.config(Map.of("envv", Map.of("name", "house-rules"))).resolve());
        assertTrue(e.getMessage().contains("unknown section envv") && e.getMessage().contains("did you mean env?"), e.getMessage());
        ConfigException inSection = assertThrows(ConfigException.class,
                () -> SkillOpt.config(Map.of("train", Map.of("num_epoch", 1))).resolve());
        assertTrue(inSection.getMessage().contains("did you mean train.num_epochs?"), inSection.getMessage());
    }

    @Test void anUnknownBackendLabelFailsAsSetAsAsFlag() {
        ConfigException flag = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).backend("foo"));
        assertTrue(flag.getMessage().contains("invalid choice: 'foo'"), flag.getMessage());
        ConfigException set = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).set("model.backend", "foo").resolve());
        assertTrue(set.getMessage().startsWith("model.backend (model_backend) must be one of azure_openai, codex"), set.getMessage());
        ConfigException close = assertThrows(ConfigException.class, () -> SkillOpt.config(DEMO).set("model.backend", "openai_compatibel").resolve());
        assertTrue(close.getMessage().contains("did you mean openai_compatible?"), close.getMessage());
    }

    @Test void relaxedReportsTheSameMistakesAsWarnings() {
        List<ConfigWarning> seen = new ArrayList<>();
        var r = SkillOpt.config(DEMO).set("train.num_epoch", 2).relaxed().onWarning(seen::add).resolve();
        assertEquals(2, r.run().train().numEpochs(), "the mistyped key is ignored, as on the CLI");
        assertEquals(1, seen.size(), seen.toString());
        assertTrue(seen.get(0).changesBehaviour());
        assertTrue(seen.get(0).message().contains("did you mean train.num_epochs?"), seen.toString());
    }

    @Test void aMissingSkillInitFileIsAnErrorNotAnEmptySkill(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-skill.md");
        ConfigException e = assertThrows(ConfigException.class,
                () -> SkillOpt.config(DEMO).set("env.skill_init", missing.toString()).outRoot(tmp.resolve("run")).trainer());
        assertTrue(e.getMessage().contains("env.skill_init") && e.getMessage().contains(missing.toString()), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("run")));
        // an explicitly blank skill_init is a choice, not a mistake
        assertDoesNotThrow(() -> SkillOpt.config(DEMO).set("env.skill_init", "").resolve());
    }

    @Test void everyCallReturnsANewBuilderAndLeavesTheBaseAlone() {
        SkillOpt base = SkillOpt.config(DEMO);
        SkillOpt a = base.set("train.num_epochs", 1);
        SkillOpt b = base.set("train.num_epochs", 4);
        assertNotSame(a, b);
        assertNotSame(base, a);
        assertEquals(1, a.resolve().run().train().numEpochs());
        assertEquals(4, b.resolve().run().train().numEpochs());
        assertEquals(2, base.resolve().run().train().numEpochs(), "the demo config's own value");
        SkillOpt c = base.backend("claude");
        assertEquals("openai_compatible", base.resolve().run().model().backend());
        assertEquals("claude_chat", c.resolve().run().model().backend());
        assertNotSame(base, base.listener(new io.skillopt4j.run.TrainingListener() { }));
        assertNotSame(base, base.environment(Map.of()));
    }

    @Test void forceNewAndExtendEpochsAreTheCliSwitches() {
        SkillOpt base = SkillOpt.config(DEMO);
        var flat = base.forceNew().extendEpochs().resolve().flat();
        assertEquals(true, flat.get("force_new"));
        assertEquals(true, flat.get("extend_epochs"));
        assertNull(base.resolve().flat().get("force_new"), "off unless asked");
        var cl = io.skillopt4j.cli.TrainCommand.commandLine();
        var pr = cl.parseArgs("--config", DEMO, "--force-new", "--seed", "3");
        var req = io.skillopt4j.cli.ConfigOptions.train().request(pr);
        assertEquals(true, req.flags().get("force-new"), "a bare switch");
        assertEquals(3, req.flags().get("seed"));
    }
}
