package io.skillopt4j.config;

import io.skillopt4j.config.ConfigRequest.Override;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe; a short-lived builder. The notebook way to make a {@link ResolvedConfig}; every call maps to
 * the CLI input it stands for, so the result equals {@code skillopt config show} with the same inputs:
 * <pre>{@code
 * ResolvedConfig cfg = SkillOptConfig.load("configs/searchqa/default.yaml")
 *         .set("train.batch_size", 8)          // --cfg-options train.batch_size=8
 *         .backend("claude_code_exec")         // --backend claude_code_exec
 *         .flag("target_model", "my-model")    // --target_model my-model
 *         .build();
 * }</pre>
 */
public final class SkillOptConfig {
    private final Path config;
    private final Map<String, Object> base;
    private final List<Override> overrides = new ArrayList<>();
    private final Map<String, Object> flags = new LinkedHashMap<>();
    private boolean eval;
    private Clock clock = Clock.systemDefaultZone();
    private Path cwd = Path.of("");

    private SkillOptConfig(Path config, Map<String, Object> base) {
        this.config = config;
        this.base = base;
    }

    /** Starts from a YAML file (with its {@code _base_} chain). */
    public static SkillOptConfig load(String path) { return load(Path.of(path)); }

    /** Starts from a YAML file (with its {@code _base_} chain). */
    public static SkillOptConfig load(Path path) { return new SkillOptConfig(path, Map.of()); }

    /** Starts from nothing (every key takes its default). */
    public static SkillOptConfig empty() { return new SkillOptConfig(null, Map.of()); }

    /** Starts from an in-memory mapping shaped like a YAML file (structured or flat). */
    public static SkillOptConfig fromMap(Map<String, ?> map) {
        return new SkillOptConfig(null, Values.copyMap(map));
    }

    /** Adds {@code --cfg-options key=value}; strings are coerced like CLI text, other values kept as given. */
    public SkillOptConfig set(String key, Object value) {
        overrides.add(Override.typed(key, value));
        return this;
    }

    /** Adds raw {@code --cfg-options} items ({@code "train.seed=3"}). */
    public SkillOptConfig cfgOptions(String... items) {
        for (String s : items) overrides.add(Override.parse(s));
        return this;
    }

    /**
     * Sets a legacy flag ({@code flag("batch_size", 8)} = {@code --batch_size 8}); null removes it. Strings are
     * parsed like CLI text; the value is checked when the config is built (against eval's flags after
     * {@link #forEval()}).
     */
    public SkillOptConfig flag(String name, Object value) {
        String n = name.startsWith("--") ? name.substring(2) : name;
        if (value == null) flags.remove(n);
        else flags.put(n, value);
        return this;
    }

    /** {@code --backend}: the run label pairing optimizer and target backends (aliases accepted). */
    public SkillOptConfig backend(String name) { return flag("backend", name); }

    /** {@code --optimizer_backend}. */
    public SkillOptConfig optimizerBackend(String name) { return flag("optimizer_backend", name); }

    /** {@code --target_backend}. */
    public SkillOptConfig targetBackend(String name) { return flag("target_backend", name); }

    /** {@code --out_root}. */
    public SkillOptConfig outRoot(String dir) { return flag("out_root", dir); }

    /** Applies eval_only's rules and flag set instead of train's. */
    public SkillOptConfig forEval() {
        this.eval = true;
        return this;
    }

    /** Uses this clock for the {@code out_root} timestamp (tests). */
    public SkillOptConfig clock(Clock c) {
        this.clock = c;
        return this;
    }

    /** Resolves relative paths (out_root) against this directory instead of the working directory. */
    public SkillOptConfig workingDirectory(Path dir) {
        this.cwd = dir;
        return this;
    }

    /** Returns the request this builder stands for. */
    public ConfigRequest request() {
        Map<String, Object> typed = new LinkedHashMap<>();
        flags.forEach((k, v) -> typed.put(k, FlagValues.fromCode(k, v, eval)));
        return new ConfigRequest(config, base, overrides, typed, eval);
    }

    /** Resolves once and returns the result; bad input throws {@link io.skillopt4j.ConfigException}. */
    public ResolvedConfig build() {
        return new ConfigResolver(clock, cwd).resolve(request());
    }

    /** Resolves and describes every flat key as a table (key, value, source, is default). */
    public tech.tablesaw.api.Table describe() {
        return ConfigDescription.describe(request(), build());
    }
}
