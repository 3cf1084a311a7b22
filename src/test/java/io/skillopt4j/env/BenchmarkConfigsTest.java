package io.skillopt4j.env;

import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Cfg;
import io.skillopt4j.notebook.SkillOpt;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchmarkConfigsTest {
    static final List<String> ENVS = List.of("searchqa", "livemathematicianbench", "officeqa", "sealqa", "docvqa", "mathverse",
            "mmrb", "babyvision", "spreadsheetbench", "alfworld", "swebench");

    @Test
    void every_benchmark_is_registered_and_its_config_loads_with_an_existing_initial_skill() throws Exception {
        assertTrue(Benchmarks.all().keySet().containsAll(ENVS), Benchmarks.all().keySet().toString());
        for (String env : ENVS) {
            FlatConfig c = Cfg.load(Path.of("configs", env, "default.yaml")).resolve().flat();
            assertEquals(env, c.string("env", ""), env);
            Path skill = Path.of(c.string("skill_init", ""));
            assertTrue(Files.isRegularFile(skill), env + ": " + skill);
            assertTrue(Files.readString(skill).startsWith("# "), env);
        }
    }

    @Test
    void an_unknown_env_lists_the_installed_ones() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.skillopt4j.ConfigException.class, () -> Benchmarks.factory("nope"));
        for (String env : ENVS) assertTrue(e.getMessage().contains(env), e.getMessage());
    }
}
