package io.skillopt4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test fixture: the small house-rules training config the CLI tests run on the simulator, written as YAML into a
 * folder. Each test states only the keys it differs in ({@code "train.num_epochs", 1}); the rest is one shared shape.
 */
final class HouseYaml {
    private final Map<String, Map<String, Object>> sections = new LinkedHashMap<>();

    private HouseYaml(String baseUrl) {
        put("model.backend", "openai_compatible");
        put("model.optimizer", "sim-optimizer");
        put("model.target", "sim-target");
        put("model.openai_compatible_base_url", baseUrl);
        put("train.num_epochs", 1);
        put("train.batch_size", 5);
        put("train.seed", 42);
        put("gradient.minibatch_size", 4);
        put("gradient.merge_batch_size", 2);
        put("gradient.analyst_workers", 2);
        put("optimizer.learning_rate", 4);
        put("optimizer.lr_scheduler", "constant");
        put("optimizer.use_slow_update", false);
        put("optimizer.use_meta_skill", false);
        put("evaluation.sel_env_num", 0);
        put("evaluation.test_env_num", 0);
        put("env.name", "house-rules");
        put("env.house_rules_per_category", 3);
        put("env.workers", 2);
    }

    /** Starts from the shared shape with the simulator (or any server) at {@code baseUrl}. */
    static HouseYaml at(String baseUrl) { return new HouseYaml(baseUrl); }

    /** Sets {@code section.key} to {@code value} (a new key is appended to its section). */
    HouseYaml put(String dotted, Object value) {
        int dot = dotted.indexOf('.');
        sections.computeIfAbsent(dotted.substring(0, dot), k -> new LinkedHashMap<>()).put(dotted.substring(dot + 1), value);
        return this;
    }

    /** Writes {@code dir/skill.md} (the initial skill) and {@code dir/house.yaml} training into {@code out}; returns the YAML. */
    Path write(Path dir, Path out) throws Exception {
        Path skill = dir.resolve("skill.md");
        Files.writeString(skill, "# House style\n\nAnswer the request.\n");
        put("env.skill_init", skill.toString());
        put("env.out_root", out.toString());
        StringBuilder y = new StringBuilder();
        sections.forEach((section, keys) -> {
            y.append(section).append(":\n");
            keys.forEach((k, v) -> y.append("  ").append(k).append(": ").append(v).append('\n'));
        });
        Path cfg = dir.resolve("house.yaml");
        Files.writeString(cfg, y.toString());
        return cfg;
    }
}
