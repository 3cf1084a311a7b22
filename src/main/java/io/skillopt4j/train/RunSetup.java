package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;
import io.skillopt4j.env.DataLoader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stateless. What a training derives before it touches its folder: train size, initial skill, the config.json map. */
final class RunSetup {
    /** One command's switches: they say what to do with the folder, not how the run trains, so config.json omits them. */
    private static final List<Setting<Boolean>> COMMAND_SWITCHES = List.of(Setting.bool("force_new"), Setting.bool("extend_epochs"));

    private RunSetup() {}

    /** Upstream's {@code _resolve_train_size}: the configured size, else the split's; both set and different is an error. */
    static int trainSize(TrainSettings s, DataLoader data) {
        int configured = s.configuredTrainSize();
        int inferred = data == null ? 0 : data.trainSize();
        if (configured > 0 && inferred > 0 && configured != inferred)
            throw new ConfigException("train_size must match the train split (" + inferred + " items), got " + configured);
        int n = configured > 0 ? configured : inferred;
        if (n <= 0) throw new ConfigException("train_size must be > 0: set train.train_size or provide a non-empty train split");
        return n;
    }

    /** The initial skill's text (a missing file is the empty skill, as upstream); a folder is a packed Agent Skill. */
    static String initialSkill(String skillInit) {
        if (skillInit == null || skillInit.isBlank()) return "";
        Path f = Path.of(skillInit).toAbsolutePath();
        if (Files.isDirectory(f)) return io.skillopt4j.env.SkillBundle.read(f, "env.skill_init").pack();
        return Files.isRegularFile(f) ? Trajectories.readFile(f) : "";
    }

    /** The config as upstream dumps it to config.json: the flat config plus the derived sizes and normalised modes. */
    static Map<String, Object> derivedConfig(FlatConfig config, ModelRoles roles, Path outRoot, TrainSettings s, int trainSize, int spe) {
        Map<String, Object> m = new LinkedHashMap<>(config.asMap());
        for (Setting<Boolean> sw : COMMAND_SWITCHES) m.remove(sw.key());
        m.putAll(Json.obj("out_root", outRoot.toString(), "train_size", trainSize, "steps_per_epoch", spe,
                "batches_per_epoch", spe * s.accumulation(), "samples_per_epoch", trainSize,
                "skill_update_mode", s.updateMode().configName(), "lr_control_mode", s.lrControlMode()));
        // the thinking policy can come from the environment, so upstream records what is actually sent
        io.skillopt4j.backend.Backends.qwenThinkingModes(config, roles, System.getenv()).ifPresent(q -> m.put("resolved_qwen_thinking_modes", q));
        return m;
    }
}
