package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Immutable. The typed, validated view of a resolved flat config, grouped like the YAML sections. Absent keys take
 * the trainer's defaults (upstream's code defaults where they differ from the base YAML); names are canonical (aliases
 * mapped). Anything not modelled here is in {@link #flat()}, the config this view was read from.
 */
public record RunConfig(Model model, Train train, Gradient gradient, Optimizer optimizer, Evaluation evaluation,
                        Env env, FlatConfig flat) {

    /** {@code priceTable} and {@code responseCacheDir} are empty when unset. */
    public record Model(String backend, String optimizerBackend, String targetBackend, String optimizerModel,
                        String targetModel, String reasoningEffort, String rewriteReasoningEffort,
                        long rewriteMaxCompletionTokens, String responseCache, String responseCacheDir,
                        String claudeChatTransport, String priceTable, String openaiCompatibleBaseUrl,
                        boolean codexTraceToOptimizer, boolean claudeTraceToOptimizer, boolean jsonReask) {}

    public record Train(int numEpochs, int trainSize, int batchSize, int accumulation, long seed, boolean backgroundEval) {}

    public record Gradient(int minibatchSize, int mergeBatchSize, int analystWorkers, boolean failureOnly) {}

    /** {@code editBudget} is {@code optimizer.learning_rate}. */
    public record Optimizer(int editBudget, int minEditBudget, String lrScheduler, String lrControlMode,
                            String skillUpdateMode, boolean useSlowUpdate, int slowUpdateSamples,
                            boolean slowUpdateGateWithSelection, String longitudinalPairPolicy, boolean useMetaSkill,
                            boolean useSkillAwareReflection, String skillAwareAppendixSource,
                            int skillAwareConsolidateThreshold) {}

    /** {@code leadingWords} empty = the built-in list. */
    public record Evaluation(boolean useGate, String gateMetric, double gateMixedWeight, boolean useSemanticDensity,
                             double semanticDensityWeight, List<String> leadingWords, int selEnvNum, int testEnvNum,
                             boolean evalTest) {
        public Evaluation {
            leadingWords = List.copyOf(leadingWords);
        }
    }

    public record Env(String name, String skillInit, Path outRoot, String splitMode, String splitDir, String dataPath,
                      String splitRatio, long splitSeed, String splitOutputDir, double execTimeout,
                      Optional<Integer> workers, int limit) {}

    public static final List<String> LR_SCHEDULERS = List.of("constant", "linear", "cosine", "autonomous");
    public static final List<String> LR_CONTROL_MODES = List.of("fixed", "autonomous", "none");
    public static final List<String> UPDATE_MODES = List.of("patch", "rewrite_from_suggestions", "full_rewrite_minibatch");
    public static final List<String> PAIR_POLICIES = List.of("mixed", "changed", "unchanged");
    public static final List<String> GATE_METRICS = List.of("hard", "soft", "mixed");
    public static final List<String> EFFORTS = List.of("", "low", "medium", "high", "xhigh", "max");

    private static final Map<String, String> UPDATE_ALIASES = Map.of("edits", "patch", "rewrite",
            "rewrite_from_suggestions", "suggestions", "rewrite_from_suggestions", "rewrite_suggestions",
            "rewrite_from_suggestions", "full_rewrite", "full_rewrite_minibatch", "minibatch_full_rewrite",
            "full_rewrite_minibatch", "skill_rewrite_minibatch", "full_rewrite_minibatch");
    private static final Map<String, String> CONTROL_ALIASES = Map.of("manual", "fixed", "scheduler", "fixed",
            "scheduled", "fixed", "auto", "autonomous", "optimizer", "autonomous", "off", "none", "no_lr", "none");
    private static final Map<String, String> PAIR_ALIASES = Map.ofEntries(Map.entry("default", "mixed"),
            Map.entry("random", "mixed"), Map.entry("all", "mixed"), Map.entry("change", "changed"),
            Map.entry("delta", "changed"), Map.entry("10_01", "changed"), Map.entry("01_10", "changed"),
            Map.entry("stable", "unchanged"), Map.entry("same", "unchanged"), Map.entry("00_11", "unchanged"));

    /** Validates {@code flat}; a {@link ConfigException} names every bad entry, one per line. */
    public static RunConfig from(FlatConfig flat, String source) {
        List<String> problems = new ArrayList<>();
        RunConfig c = read(flat, source, problems);
        if (!problems.isEmpty()) throw new ConfigException(String.join("\n", problems));
        return c;
    }

    /** Reads the typed view, adding one line per bad entry to {@code problems} (bad entries read as a fallback). */
    static RunConfig read(FlatConfig flat, String source, List<String> problems) {
        TypedReader r = new TypedReader(flat, source);
        String updateMode = r.choice("skill_update_mode", UPDATE_MODES, UPDATE_ALIASES);
        String control = r.choice("lr_control_mode", LR_CONTROL_MODES, CONTROL_ALIASES);
        if (updateMode.equals("full_rewrite_minibatch")) control = "none";
        Model model = new Model(
                BackendNames.normalize(r.str("model_backend")),
                r.role("optimizer_backend", BackendNames.OPTIMIZER_BACKENDS),
                r.role("target_backend", BackendNames.TARGET_BACKENDS),
                r.str("optimizer_model"), r.str("target_model"),
                r.choice("reasoning_effort", EFFORTS, Map.of()),
                r.choice("rewrite_reasoning_effort", EFFORTS, Map.of()),
                r.integer("rewrite_max_completion_tokens", 1),
                r.choice("response_cache", List.of("off", "read_write", "replay"), Map.of()),
                r.str("response_cache_dir"),
                r.choice("claude_chat_transport", List.of("cli", "api"), Map.of()),
                r.str("price_table"), r.str("openai_compatible_base_url"),
                r.bool("codex_trace_to_optimizer"), r.bool("claude_trace_to_optimizer"), r.bool("json_reask"));
        Train train = new Train(r.intValue("num_epochs", 0), r.intValue("train_size", 0), r.intValue("batch_size", 1),
                r.intValue("accumulation", 1), r.integer("seed", Long.MIN_VALUE), r.bool("background_eval"));
        Gradient gradient = new Gradient(r.intValue("minibatch_size", 1), r.intValue("merge_batch_size", 2),
                r.intValue("analyst_workers", 1), r.bool("failure_only"));
        Optimizer optimizer = new Optimizer(r.intValue("edit_budget", 0), r.intValue("min_edit_budget", 0),
                r.choice("lr_scheduler", LR_SCHEDULERS, Map.of()), control, updateMode,
                r.bool("use_slow_update"), r.intValue("slow_update_samples", 0),
                r.bool("slow_update_gate_with_selection"),
                r.choice("longitudinal_pair_policy", PAIR_POLICIES, PAIR_ALIASES), r.bool("use_meta_skill"),
                r.bool("use_skill_aware_reflection"),
                r.choice("skill_aware_appendix_source", List.of("both", "failure_only"), Map.of()),
                r.intValue("skill_aware_consolidate_threshold", 0));
        Evaluation evaluation = new Evaluation(r.notFalse("use_gate"), r.choice("gate_metric", GATE_METRICS, Map.of()),
                r.decimal("gate_mixed_weight", 0, 1), r.bool("use_semantic_density"),
                r.decimal("semantic_density_weight", 0, Double.POSITIVE_INFINITY), r.words("leading_words"),
                r.intValue("sel_env_num", 0), r.intValue("test_env_num", 0), r.bool("eval_test"));
        String outRoot = r.str("out_root");
        Env env = new Env(r.str("env"), r.str("skill_init"), outRoot.isEmpty() ? Path.of("") : Path.of(outRoot),
                flat.has("split_mode") ? r.choice("split_mode", List.of("ratio", "split_dir"), Map.of()) : "",
                r.str("split_dir"), r.str("data_path"), flat.has("split_ratio") ? r.str("split_ratio") : "2:1:7",
                flat.has("split_seed") ? r.integer("split_seed", Long.MIN_VALUE) : 0,
                r.str("split_output_dir"),
                flat.has("exec_timeout") ? r.decimal("exec_timeout", 0, Double.POSITIVE_INFINITY) : 120,
                flat.has("workers") ? r.optionalInteger("workers", 1).map(Long::intValue) : Optional.empty(),
                flat.has("limit") ? r.intValue("limit", 0) : 0);
        r.checkTable();
        for (String k : List.of("openai_compatible_base_url", "optimizer_openai_compatible_base_url", "target_openai_compatible_base_url")) r.url(k);
        problems.addAll(r.problems());
        return new RunConfig(model, train, gradient, optimizer, evaluation, env, flat);
    }
}
