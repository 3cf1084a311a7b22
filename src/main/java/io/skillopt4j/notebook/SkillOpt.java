package io.skillopt4j.notebook;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.config.SkillOptConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.frames.Compare;
import io.skillopt4j.train.Trainer;
import io.skillopt4j.run.TrainingListener;
import tech.tablesaw.api.Table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Not thread-safe; a short-lived builder (use it, then discard it). The notebook entry point: configure a run
 * fluently, train it, and get a {@link Run} back; or open and compare existing run folders.
 * <pre>{@code
 * Run run = SkillOpt.config("configs/demo/default.yaml")
 *         .set("train.num_epochs", 2).backend("openai_compatible").baseUrl(sim.url())
 *         .train();
 * run.steps();
 * SkillOpt.compare(run, SkillOpt.run("outputs/python_run")).steps();
 * }</pre>
 */
public final class SkillOpt {
    private final SkillOptConfig config;
    private final List<TrainingListener> listeners = new ArrayList<>();
    private Map<String, String> env = System.getenv();

    private SkillOpt(SkillOptConfig config) { this.config = config; }

    /** Starts from a YAML config file (with its {@code _base_} chain), as {@code skillopt train --config PATH}. */
    public static SkillOpt config(String path) { return new SkillOpt(SkillOptConfig.load(path)); }

    /** Starts from a YAML config file. */
    public static SkillOpt config(Path path) { return new SkillOpt(SkillOptConfig.load(path)); }

    /** Starts from an in-memory mapping shaped like a YAML config (structured or flat keys). */
    public static SkillOpt config(Map<String, ?> yamlShaped) { return new SkillOpt(SkillOptConfig.fromMap(yamlShaped)); }

    /** Opens a run folder (ours or Python SkillOpt's); same as {@link Runs#open(String)}. */
    public static Run run(String dir) { return Runs.open(dir); }

    /** Opens a run folder. */
    public static Run run(Path dir) { return Runs.open(dir); }

    /** Compares runs side by side; same as {@link Runs#compare(Run...)}. */
    public static Compare compare(Run... runs) { return Runs.compare(runs); }

    /** Compares run folders side by side. */
    public static Compare compare(String... dirs) { return Runs.compare(java.util.Arrays.stream(dirs).map(Runs::open).toList()); }

    /** Sets a structured key, as {@code --cfg-options key=value} (e.g. {@code "train.num_epochs", 2}). */
    public SkillOpt set(String key, Object value) { config.set(key, value); return this; }

    /** Sets a flat flag, as {@code --name value} on the train command line. */
    public SkillOpt flag(String name, Object value) { config.flag(name, value); return this; }

    /** Selects the backend of both roles, as {@code --backend NAME}. */
    public SkillOpt backend(String name) { config.backend(name); return this; }

    /** Selects the optimizer backend. */
    public SkillOpt optimizerBackend(String name) { config.optimizerBackend(name); return this; }

    /** Selects the target backend. */
    public SkillOpt targetBackend(String name) { config.targetBackend(name); return this; }

    /** Sets the base URL of the {@code openai_compatible} backend (e.g. the offline simulator's {@code sim.url()}). */
    public SkillOpt baseUrl(String url) { config.flag("openai_compatible_base_url", url); return this; }

    /** Sets both models, as {@code --optimizer_model}/{@code --target_model}. */
    public SkillOpt model(String model) { config.flag("optimizer_model", model); config.flag("target_model", model); return this; }

    /** Sets the run folder (default: {@code outputs/skillopt_<env>_<model>_<timestamp>}). */
    public SkillOpt outRoot(String dir) { config.outRoot(dir); return this; }

    /** Sets the run folder. */
    public SkillOpt outRoot(Path dir) { config.outRoot(dir.toString()); return this; }

    /** Adds a listener for training events (step finished, epoch finished, ...). */
    public SkillOpt listener(TrainingListener l) { listeners.add(l); return this; }

    /** Uses {@code env} instead of the process environment for API keys and URLs (tests, shared kernels). */
    public SkillOpt environment(Map<String, String> env) { this.env = Map.copyOf(env); return this; }

    /** Returns every resolved key with its value, source and whether it is the default. */
    public Table describe() { return config.describe(); }

    /** Returns the resolved configuration (validated; throws {@code ConfigException} naming a bad key). */
    public ResolvedConfig resolve() { return config.build(); }

    /**
     * Trains in this thread and returns the finished (or stopped) run, showing progress in the cell: a line
     * updated in place under a kernel, one compact line per step in plain JShell.
     */
    public Run train() {
        Trainer t = trainer(true);
        return Runs.open(t.train().outRoot());
    }

    /**
     * Trains on a background thread; the returned {@link Training} shows live progress, can {@code stop()}
     * (the current step's writes finish, leaving a resumable folder) and {@code await()} the run.
     */
    public Training trainAsync() { return new Training(trainer(false).trainAsync()); }

    private Trainer trainer(boolean progress) {
        ResolvedConfig resolved = config.build();
        FlatConfig flat = resolved.flat();
        ModelRoles roles = Backends.roles(flat, env);
        Path out = Path.of(flat.string("out_root", "outputs"));
        Benchmark bench = Benchmarks.create(flat.string("env", ""), new BenchmarkContext(flat, roles, out));
        Trainer.Builder b = Trainer.builder().config(flat).roles(roles).benchmark(bench).outRoot(out);
        for (TrainingListener l : listeners) b.listener(l);
        if (progress) b.listener(new CellProgress(System::nanoTime));
        return b.build();
    }

    @Override public String toString() { return "SkillOpt builder (call train() or trainAsync())"; }
}
