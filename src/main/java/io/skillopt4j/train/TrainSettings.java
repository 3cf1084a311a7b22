package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Immutable. The trainer's knobs read from the flat config with upstream's defaults, normalisation and
 * validation (bad values throw {@link ConfigException} naming the key before any model call).
 */
public record TrainSettings(int numEpochs, int configuredTrainSize, int batchSize, int accumulation, long seed,
                            int minibatchSize, int mergeBatchSize, int analystWorkers, boolean failureOnly,
                            int editBudget, int minEditBudget, String lrScheduler, String lrControlMode, UpdateMode updateMode,
                            boolean useSlowUpdate, int slowUpdateSamples, boolean slowUpdateGateWithSelection, String pairPolicy,
                            boolean useMetaSkill, boolean skillAware, String appendixSource, int consolidateThreshold,
                            boolean useGate, String gateMetric, double gateMixedWeight, boolean useDensity, double densityWeight,
                            Set<String> leadingWords, int selEnvNum, int testEnvNum, boolean evalTest, String env, String skillInit,
                            String rewriteReasoningEffort, int rewriteMaxTokens, boolean codexTrace, boolean claudeTrace,
                            boolean backgroundEval, boolean jsonReask) {

    /** Reads and validates {@code cfg}. */
    public static TrainSettings from(FlatConfig cfg) {
        int batch = cfg.integer("batch_size", 40);
        if (batch <= 0) throw ConfigException.badValue("", "batch_size", cfg.get("batch_size"), "an integer > 0");
        int accum = cfg.integer("accumulation", 1);
        if (accum <= 0) throw ConfigException.badValue("", "accumulation", cfg.get("accumulation"), "an integer > 0");
        int merge = cfg.integer("merge_batch_size", 8);
        if (merge < 2) throw ConfigException.badValue("", "merge_batch_size", cfg.get("merge_batch_size"), "an integer >= 2");
        int epochs = cfg.integer("num_epochs", 4);
        if (epochs < 0) throw ConfigException.badValue("", "num_epochs", cfg.get("num_epochs"), "an integer >= 0");
        int workers = Math.max(1, cfg.integer("analyst_workers", 16));
        UpdateMode mode = UpdateMode.parse(cfg.string("skill_update_mode", "patch"));
        String lrMode = lrControlMode(cfg.string("lr_control_mode", "fixed"));
        if (mode == UpdateMode.FULL_REWRITE) lrMode = "none";
        String sched = cfg.string("lr_scheduler", "constant");
        if (sched.isBlank()) sched = "constant";
        new EditBudgetSchedule(sched, 1, 1, 1); // validates the name
        String metric = cfg.string("gate_metric", "hard").trim().toLowerCase(Locale.ROOT);
        if (metric.isEmpty()) metric = "hard";
        if (!List.of("hard", "soft", "mixed").contains(metric)) {
            throw ConfigException.badValue("", "gate_metric", cfg.get("gate_metric"), "one of hard, soft, mixed");
        }
        double w = cfg.decimal("gate_mixed_weight", 0.5);
        if (w < 0 || w > 1) throw ConfigException.badValue("", "gate_mixed_weight", cfg.get("gate_mixed_weight"), "a number in [0, 1]");
        Object ug = cfg.get("use_gate");
        boolean useGate = !(Boolean.FALSE.equals(ug) || (ug instanceof String s && s.trim().equalsIgnoreCase("false")));
        String appendixSource = cfg.string("skill_aware_appendix_source", "both").trim().toLowerCase(Locale.ROOT);
        String targetBackend = cfg.string("target_backend", "");
        String rewriteEffort = cfg.has("rewrite_reasoning_effort") ? cfg.string("rewrite_reasoning_effort", "") : "high";
        int minBudget = cfg.integer("min_edit_budget", 2); // upstream's cfg.get("min_edit_budget", 2): a configured 0 stays 0
        return new TrainSettings(epochs, cfg.integer("train_size", 0), batch, accum, cfg.longValue("seed", 42),
                Math.max(1, cfg.integer("minibatch_size", 8)), merge, workers, cfg.bool("failure_only", false),
                cfg.integer("edit_budget", 4), minBudget, sched, lrMode, mode,
                cfg.bool("use_slow_update", false), Math.max(1, cfg.integer("slow_update_samples", 20)),
                cfg.bool("slow_update_gate_with_selection", false), pairPolicy(cfg.string("longitudinal_pair_policy", "mixed")),
                cfg.bool("use_meta_skill", false), cfg.bool("use_skill_aware_reflection", false),
                appendixSource.isEmpty() ? "both" : appendixSource, cfg.integer("skill_aware_consolidate_threshold", 0),
                useGate, metric, w, cfg.bool("use_semantic_density", false), cfg.decimal("semantic_density_weight", 0.05),
                leadingWords(cfg.get("leading_words")), cfg.integer("sel_env_num", 0), cfg.integer("test_env_num", 0),
                cfg.bool("eval_test", true), cfg.string("env", ""), cfg.string("skill_init", ""),
                rewriteEffort.isBlank() ? null : rewriteEffort, cfg.integer("rewrite_max_completion_tokens", 64000),
                targetBackend.equals("codex_exec") && cfg.bool("codex_trace_to_optimizer", false),
                targetBackend.equals("claude_code_exec") && cfg.bool("claude_trace_to_optimizer", true),
                cfg.bool("background_eval", true), cfg.bool("json_reask", false));
    }

    /** Upstream's {@code _normalise_lr_control_mode}. */
    static String lrControlMode(String s) {
        String v = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "": case "fixed": case "manual": case "scheduler": case "scheduled": return "fixed";
            case "autonomous": case "auto": case "optimizer": return "autonomous";
            case "none": case "off": case "no_lr": return "none";
            default: throw ConfigException.badValue("", "lr_control_mode", s, "one of fixed, autonomous, none");
        }
    }

    /** Upstream's {@code _normalise_longitudinal_pair_policy}. */
    static String pairPolicy(String s) {
        String v = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "": case "mixed": case "default": case "random": case "all": return "mixed";
            case "changed": case "change": case "delta": case "10_01": case "01_10": return "changed";
            case "unchanged": case "stable": case "same": case "00_11": return "unchanged";
            default: throw ConfigException.badValue("", "longitudinal_pair_policy", s, "one of mixed, changed, unchanged");
        }
    }

    static Set<String> leadingWords(Object v) {
        List<String> words = new ArrayList<>();
        if (v instanceof List<?> l) l.forEach(o -> words.add(String.valueOf(o).trim()));
        else if (v instanceof String s && !s.isBlank()) for (String p : s.split(",")) words.add(p.trim());
        if (words.isEmpty()) words.addAll(SkillDocument.DEFAULT_LEADING_WORDS);
        Set<String> out = new LinkedHashSet<>();
        for (String w : words) if (!w.isEmpty()) out.add(w.toLowerCase(Locale.ROOT));
        return Set.copyOf(out);
    }

    /** Returns ceil(train_size / (batch_size × accumulation)). */
    public int stepsPerEpoch(int trainSize) {
        long per = (long) batchSize * accumulation;
        return (int) ((trainSize + per - 1) / per);
    }

    /** Returns true when the skill-aware success analyst may emit appendix notes. */
    public boolean successNotes() { return skillAware && !appendixSource.equals("failure_only"); }
}
