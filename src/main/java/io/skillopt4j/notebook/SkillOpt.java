package io.skillopt4j.notebook;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.Checks;
import io.skillopt4j.config.ConfigDescription;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.ConfigWarning;
import io.skillopt4j.config.FlagValues;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.config.RunConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.RunParts;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.run.TrainingListener;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.Evaluator;
import io.skillopt4j.train.Preflight;
import io.skillopt4j.train.ExecutionEngine;
import io.skillopt4j.train.Trainer;
import tech.tablesaw.api.Table;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Immutable: every call returns a new builder, so {@code base.set(k, 1)} and {@code base.set(k, 4)} are two independent
 * runs. The one way a training is put together, for notebooks, the CLI and tests; each call maps to the CLI input it
 * stands for. Mistakes (an unknown key or section, a backend that does not exist, a missing file) throw
 * {@link ConfigException} with a did-you-mean before any model call, unless {@link #relaxed()} makes them warnings.
 */
public final class SkillOpt {
    /** Never changed after construction: each builder call changes a fresh copy. */
    private static final class Spec implements Cloneable {
        ConfigRequest request;
        Map<String, Object> codeFlags = Map.of();
        Clock clock; // null: the system clock in the default time zone, looked up only to name a run (ConfigResolver)
        Path cwd = Path.of("");
        Map<String, String> env = System.getenv();
        List<TrainingListener> listeners = List.of();
        RolloutRunner.Progress progress;
        Function<BenchmarkContext, Benchmark> benchmark;
        ExecutionEngine.Factory engine;
        boolean relaxed;
        boolean cliWarnings;
        Consumer<ConfigWarning> onWarning = w -> System.err.println(w);

        Spec copy() {
            try { return (Spec) clone(); } catch (CloneNotSupportedException e) { throw new AssertionError(e); }
        }
    }

    private final Spec spec;

    private SkillOpt(Spec spec) { this.spec = spec; }

    private SkillOpt with(Consumer<Spec> change) {
        Spec s = spec.copy();
        change.accept(s);
        return new SkillOpt(s);
    }

    /** Starts from a YAML config file (with its {@code _base_} chain), as {@code skillopt train --config PATH}. */
    public static SkillOpt config(String path) { return config(Path.of(path)); }

    public static SkillOpt config(Path path) { return request(ConfigRequest.file(path)); }

    /** Starts from an in-memory mapping shaped like a YAML config (structured or flat keys). */
    public static SkillOpt config(Map<String, ?> yamlShaped) { return request(ConfigRequest.map(yamlShaped)); }

    /** Starts from nothing: every key takes its default. */
    public static SkillOpt empty() { return request(ConfigRequest.map(Map.of())); }

    /** Starts from what a command line asked for (the CLI's entry: {@code ConfigOptions.request(parseResult)}). */
    public static SkillOpt request(ConfigRequest req) { return new SkillOpt(new Spec()).with(s -> s.request = req); }

    private SkillOpt request(Function<ConfigRequest, ConfigRequest> f) { return with(s -> s.request = f.apply(s.request)); }

    /** Sets a structured key, as {@code --cfg-options key=value} (e.g. {@code "train.num_epochs", 2}); strings are coerced like CLI text. */
    public SkillOpt set(String key, Object value) { return request(r -> r.withOverride(ConfigRequest.Override.typed(key, value))); }

    /** Adds raw {@code --cfg-options} items ({@code "train.seed=3"}). */
    public SkillOpt cfgOptions(String... items) {
        return request(r -> {
            ConfigRequest out = r;
            for (String item : items) out = out.withOverride(ConfigRequest.Override.parse(item));
            return out;
        });
    }

    /** Sets a legacy flag, as {@code --name value} on the train command line; null removes it. Checked at once. */
    public SkillOpt flag(String name, Object value) {
        String n = name.startsWith("--") ? name.substring(2) : name;
        FlagValues.fromCode(n, value, spec.request.eval()); // an unknown flag or bad value fails here, not at train()
        Map<String, Object> f = new LinkedHashMap<>(spec.codeFlags);
        if (value == null) f.remove(n);
        else f.put(n, value);
        return with(s -> s.codeFlags = java.util.Collections.unmodifiableMap(f));
    }

    /** Selects the backend of both roles, as {@code --backend NAME}. */
    public SkillOpt backend(String name) { return flag("backend", name); }

    public SkillOpt optimizerBackend(String name) { return flag("optimizer_backend", name); }

    public SkillOpt targetBackend(String name) { return flag("target_backend", name); }

    /** Sets the base URL of the {@code openai_compatible} backend. */
    public SkillOpt baseUrl(String url) { return flag("openai_compatible_base_url", url); }

    /** Sets both models, as {@code --optimizer_model}/{@code --target_model}. */
    public SkillOpt model(String model) { return flag("optimizer_model", model).flag("target_model", model); }

    /** Sets the run folder (default: {@code outputs/skillopt_<env>_<model>_<timestamp>}). */
    public SkillOpt outRoot(String dir) { return flag("out_root", dir); }

    public SkillOpt outRoot(Path dir) { return outRoot(dir.toString()); }

    /** Starts the run folder afresh, as {@code --force-new}: an existing run there is moved aside (docs/training.md). */
    public SkillOpt forceNew() { return flag("force-new", true); }

    /** Lets a finished or stopped run continue with a larger {@code train.num_epochs}, as {@code --extend-epochs}. */
    public SkillOpt extendEpochs() { return flag("extend-epochs", true); }

    /** Where rollout items and optimizer calls run: {@code local} (default) or {@code temporal} (docs/scale-out.md). */
    public SkillOpt engine(String name) { return flag("engine", name); }

    /** Applies eval_only's rules and flag set instead of train's (for {@link #evaluator}). */
    public SkillOpt forEval() { return request(r -> r.withEval(true)); }

    /** Uses this clock for the {@code out_root} timestamp (tests). */
    public SkillOpt clock(Clock c) { return with(s -> s.clock = c); }

    /** Resolves relative paths (out_root) against this directory instead of the working directory. */
    public SkillOpt workingDirectory(Path dir) { return with(s -> s.cwd = dir); }

    /** Uses {@code env} instead of the process environment for API keys and URLs (tests, shared kernels). */
    public SkillOpt environment(Map<String, String> env) { return with(s -> s.env = Map.copyOf(env)); }

    /** Runs both roles on the offline simulator: {@code openai_compatible} at {@code sim.url()}, and no other environment. */
    public SkillOpt simulator(SimServer sim) {
        return environment(sim.environment()).flag("optimizer_backend", "openai_compatible").flag("target_backend", "openai_compatible");
    }

    /** Adds a listener for training events (step finished, epoch finished, ...). */
    public SkillOpt listener(TrainingListener l) {
        List<TrainingListener> ls = new ArrayList<>(spec.listeners);
        ls.add(l);
        return with(s -> s.listeners = List.copyOf(ls));
    }

    /** Receives per-item rollout progress (the demo's progress bar). */
    public SkillOpt rolloutProgress(RolloutRunner.Progress p) { return with(s -> s.progress = p); }

    /** Trains on the benchmark {@code factory} makes instead of the one {@code env.name} registers (tests, custom benchmarks). */
    public SkillOpt benchmark(Function<BenchmarkContext, Benchmark> factory) {
        return with(s -> s.benchmark = factory);
    }

    /** Runs the training's calls on {@code engine} instead of the one {@code engine.name} names (local threads by default). */
    public SkillOpt engine(ExecutionEngine.Factory engine) { return with(s -> s.engine = engine); }

    /** Reports behaviour-changing config warnings instead of throwing them (the CLI's upstream behaviour). */
    public SkillOpt relaxed() { return with(s -> s.relaxed = true); }

    /** The command line's rule: upstream's UserWarnings are errors, its Future- and DeprecationWarnings printed. */
    public SkillOpt cliWarnings() { return with(s -> { s.relaxed = false; s.cliWarnings = true; }); }

    /** Where config warnings go when they are not errors (default: standard error). */
    public SkillOpt onWarning(Consumer<ConfigWarning> sink) { return with(s -> s.onWarning = sink); }

    /** Returns the request this builder stands for (what {@code skillopt config show} would be given). */
    public ConfigRequest request() {
        ConfigRequest r = spec.request;
        for (Map.Entry<String, Object> e : spec.codeFlags.entrySet())
            r = r.withFlag(e.getKey(), FlagValues.fromCode(e.getKey(), e.getValue(), r.eval()));
        return r;
    }

    /** Resolves and checks the config: all problems in one {@link ConfigException}; nothing is built or created. */
    public ResolvedConfig resolve() { return checked(false, false, new Checks()); }

    /** {@link #resolve()} plus the checks {@link #trainer()} makes before it builds a backend or touches a file. */
    public ResolvedConfig check() { return checked(true, true, new Checks()); }

    private boolean isError(ConfigWarning w) {
        return !spec.relaxed && (spec.cliWarnings ? w.category().equals(ConfigWarning.USER) : w.changesBehaviour());
    }

    /** {@link #resolve()}; when {@code build}, with the pre-build checks (training: {@code skill_init}) and the caller's own problems. */
    private ResolvedConfig checked(boolean build, boolean training, Checks checks) {
        List<String> problems = new ArrayList<>();
        ResolvedConfig r = new ConfigResolver(spec.clock, spec.cwd).check(request(), problems);
        List<ConfigWarning> warnings = new ArrayList<>(r.warnings());
        if (training) r.missingSkillInit().ifPresent(warnings::add);
        Checks all = new Checks();
        boolean warningErrors = false;
        for (ConfigWarning w : warnings) if (isError(w)) { all.add(w.message()); warningErrors = true; }
        all.addAll(problems);
        if (build) Preflight.check(r, spec.cwd.toAbsolutePath(), spec.benchmark != null, all);
        all.addAll(checks.problems());
        if (!all.problems().isEmpty()) {
            String hint = warningErrors && !spec.cliWarnings ? " (relaxed() makes this a warning)" : "";
            throw new ConfigException(String.join("\n", all.problems()) + hint);
        }
        for (ConfigWarning w : warnings) spec.onWarning.accept(w);
        return r;
    }

    /** Every resolved key with its value, source and whether it is the default. */
    public Table describe() { return ConfigDescription.describe(request(), resolve()); }

    /** Trains in this thread, showing progress in the cell, and returns the finished (or stopped) run. */
    public Run train() { return Runs.open(listener(new CellProgress(System::nanoTime)).trainer().train().outRoot()); }

    /** Trains on a background thread; the {@link Training} shows live progress, can stop and await. */
    public Training trainAsync() { return new Training(trainer().trainAsync()); }

    /** The resolved pieces of one run: config, models and benchmark (built in this order, nothing called yet). */
    private record Parts(RunConfig run, ModelRoles roles, Benchmark benchmark) {
        Path outRoot() { return run.env().outRoot(); }
    }

    private Parts parts(boolean training, Checks checks) {
        ResolvedConfig resolved = checked(true, training, checks);
        RunConfig typed = resolved.run();
        Path out = typed.env().outRoot();
        if (!"off".equals(typed.model().responseCache()) && typed.model().responseCacheDir().isBlank()) // as the key's help says
            typed = RunConfig.from(typed.flat().with("response_cache_dir", out.resolve(".cache").resolve("responses").toString()), "");
        RunParts run = RunParts.assemble(typed.flat(), spec.env, out, spec.benchmark);
        if (spec.progress != null) run.benchmark().onProgress(spec.progress);
        return new Parts(typed, run.roles(), run.benchmark());
    }

    /** Builds the trainer (nothing runs until {@code train()}): the code base's one {@code Trainer.builder()}. */
    public Trainer trainer() {
        Parts p = parts(true, new Checks());
        Trainer.Builder b = Trainer.builder().config(p.run).roles(p.roles).benchmark(p.benchmark).outRoot(p.outRoot());
        for (TrainingListener l : spec.listeners) b.listener(l);
        if (spec.engine != null) b.engine(spec.engine);
        return b.build();
    }

    /** Builds an evaluation of {@code skill} on {@code split} (train, valid_seen, valid_unseen or all), as {@code skillopt eval}. */
    public Evaluator evaluator(Path skill, String split) {
        Checks checks = new Checks();
        Preflight.eval(skill, split, checks);
        Parts p = parts(false, checks);
        return new Evaluator(p.run.flat(), p.benchmark, skill, split, p.outRoot(), p.roles.ledger());
    }

    @Override public String toString() {
        ConfigRequest r = request();
        return "SkillOpt builder: " + (r.config() != null ? r.config() : "map") + ", " + r.overrides().size() + " override(s), "
                + r.flags().keySet() + (spec.relaxed ? ", relaxed" : "") + " (call train() or trainAsync())";
    }
}
