package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ConfigRequest.Override;

import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Thread-safe. Upstream's {@code scripts/train.py::load_config} (and {@code eval_only.py}'s variant) as one pipeline,
 * from YAML, {@code --cfg-options} and legacy flags to a validated {@link RunConfig}; roles and models resolve once.
 */
public final class ConfigResolver {
    static final String RETIRED_FLAT = "max_analyst_rounds";
    static final String RETIRED_DOTTED = "gradient.max_analyst_rounds";
    static final String RETIRED_WHY = "the analyst call count follows from the rollout results, "
            + "gradient.minibatch_size and gradient.failure_only";
    /** Keys whose values are model names: always kept as strings. */
    static final List<String> MODEL_KEYS = List.of("optimizer_model", "target_model", "minimax_model",
            "copilot_chat_optimizer_model", "copilot_chat_target_model", "judge_model");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss", Locale.ROOT);

    private final Clock clock; // null: the system clock in the default time zone
    private final Path cwd;

    /** Names runs with {@code clock}'s local time ({@code null}: the system clock's, read at each resolution). */
    public ConfigResolver(Clock clock, Path cwd) {
        this.clock = clock;
        this.cwd = cwd.toAbsolutePath().normalize();
    }

    public static ConfigResolver system() {
        return new ConfigResolver(null, Path.of(""));
    }

    /** Resolves a request; throws {@link ConfigException} (one line per problem, all of them) for bad input. */
    public ResolvedConfig resolve(ConfigRequest req) {
        List<String> problems = new ArrayList<>();
        ResolvedConfig r = check(req, problems);
        if (!problems.isEmpty()) throw new ConfigException(String.join("\n", problems));
        return r;
    }

    /**
     * Resolves a request, adding one line per bad value to {@code problems} instead of throwing, so that callers can
     * report their own checks alongside. A file that cannot be read or parsed still throws: nothing after it is checked.
     */
    public ResolvedConfig check(ConfigRequest req, List<String> problems) {
        List<ConfigWarning> warnings = new ArrayList<>();
        String source = req.config() == null ? "<map>" : req.config().toString();
        if (!req.eval()) Warnings.credentials(req, warnings);
        // B: retired overrides never reach the loader (they could flip a flat file to structured).
        Map<Boolean, List<Override>> retired = req.overrides().stream().collect(Collectors.partitioningBy(
                o -> !req.eval() && List.of(RETIRED_FLAT, RETIRED_DOTTED).contains(o.key().strip())));
        // C: load + overrides.
        ConfigLoader loader = new ConfigLoader(warnings);
        Map<String, Object> cfg = req.config() != null ? loader.load(req.config()) : Values.copyMap(req.base());
        if (req.config() != null && cfg.isEmpty()) {
            problems.add(req.config().toAbsolutePath().normalize() + ": the config file sets nothing (empty document); "
                    + "give at least the model and env sections, or a _base_ file");
        }
        ConfigFormat.checkSections(cfg, source, problems);
        if (req.config() == null) ConfigLoader.unknownKeys(cfg, "<map>", warnings); // a file's are checked as it loads
        boolean before = ConfigFormat.isStructured(cfg);
        for (Override o : retired.get(false)) {
            Warnings.checkOverrideKey(o.key(), warnings);
            ConfigFormat.set(cfg, o.key(), o.value(), before, "--cfg-options " + o.key() + "=...");
        }
        boolean structured = ConfigFormat.isStructured(cfg);
        // D: retired option.
        if (!req.eval()) retire(req, cfg, structured, retired.get(true), warnings);
        // E: legacy flags (typed: a string flag stays a string).
        for (FlagSpec f : Flags.ALL) {
            if (f.flag() == null || f.retired() || !req.flags().containsKey(f.flag())) continue;
            Object v = req.flags().get(f.flag());
            if (v == null) continue;
            if (structured) ConfigFormat.set(cfg, f.path(), v, true, "--" + f.flag());
            else cfg.put(f.flag(), v);
        }
        // F: flatten.
        Map<String, Object> flat = structured ? ConfigFormat.flatten(cfg) : cfg;
        MODEL_KEYS.forEach(k -> flat.computeIfPresent(k, (key, v) ->
                v instanceof String || v instanceof Map || v instanceof List ? v : Coercion.pyStr(v)));
        for (String k : List.of("optimizer_model", "target_model")) {
            if (flat.containsKey(k) && flat.get(k) == null) // as bad values are named: model.target (target_model)
                throw new ConfigException(source + ": " + TypedReader.name(k) + " must be a model name, got null");
        }
        // G: Azure legacy keys.
        for (String[] p : new String[][] {{"azure_openai_endpoint", "azure_endpoint"},
                {"azure_openai_api_version", "azure_api_version"}, {"azure_openai_api_key", "azure_api_key"}}) {
            Object nv = flat.get(p[0]);
            Object ov = flat.get(p[1]);
            if ((nv == null || "".equals(nv)) && ov != null && !"".equals(ov)) flat.put(p[0], ov);
        }
        // H: backends, roles, models — resolved once, here.
        Warnings.checkBackendLabel(flat.get("model_backend"), warnings);
        Roles.resolve(req, flat);
        // I: out_root.
        outRoot(req.eval(), flat);
        FlatConfig fc = FlatConfig.of(flat);
        RunConfig run = RunConfig.read(fc, source, problems);
        return new ResolvedConfig(fc, run, warnings, req.config());
    }

    private static void retire(ConfigRequest req, Map<String, Object> cfg, boolean structured,
                               List<Override> retiredOverrides, List<ConfigWarning> warnings) {
        List<String> sources = new ArrayList<>();
        if (req.flags().containsKey(RETIRED_FLAT)) sources.add("--" + RETIRED_FLAT);
        for (Override o : retiredOverrides) sources.add("--cfg-options " + o.key().strip());
        if (retiredOverrides.isEmpty()) {
            Object v = structured ? Values.lookup(cfg, RETIRED_DOTTED) : cfg.get(RETIRED_FLAT);
            if (v != null) sources.add("the config file");
        }
        if (!sources.isEmpty()) {
            warnings.add(new ConfigWarning(ConfigWarning.FUTURE, RETIRED_DOTTED + " was retired and is ignored: "
                    + RETIRED_WHY + ". Still supplied via " + String.join(", ", sources) + "; remove it."));
        }
        cfg.remove(RETIRED_FLAT);
        Values.removeNested(cfg, RETIRED_DOTTED);
    }

    private void outRoot(boolean eval, Map<String, Object> flat) {
        Object root = flat.get("out_root");
        if (root == null || "".equals(root)) {
            String stamp = LocalDateTime.now(clock != null ? clock : Clock.systemDefaultZone()).format(STAMP);
            // eval_only.py names an unset or empty env "unknown"; train.py only an unset one
            Object env = flat.get("env");
            String e = (eval ? truthy(env) : flat.containsKey("env")) ? Coercion.pyStr(env) : "unknown";
            String modelKey = eval ? "target_model" : "optimizer_model";
            String model = flat.containsKey(modelKey) ? Coercion.pyStr(flat.get(modelKey)) : "unknown";
            root = "outputs/" + (eval ? "eval_" : "skillopt_") + e + "_" + model.replace('/', '-') + "_" + stamp;
        }
        flat.put("out_root", cwd.resolve(Coercion.pyStr(root)).normalize().toString());
    }

    static boolean truthy(Object v) {
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.doubleValue() != 0;
        if (v instanceof String s) return !s.isEmpty();
        if (v instanceof Map<?, ?> m) return !m.isEmpty();
        if (v instanceof List<?> l) return !l.isEmpty();
        return true;
    }
}
