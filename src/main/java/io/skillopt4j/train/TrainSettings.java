package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.RunConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Immutable. The trainer's knobs, upstream's defaults; a bad value throws {@link ConfigException} naming it. */
public record TrainSettings(int numEpochs, int configuredTrainSize, int batchSize, int accumulation, long seed,
                            int minibatchSize, int mergeBatchSize, int analystWorkers, boolean failureOnly,
                            int editBudget, int minEditBudget, String lrScheduler, String lrControlMode, UpdateMode updateMode,
                            boolean useSlowUpdate, int slowUpdateSamples, boolean slowUpdateGateWithSelection, String pairPolicy,
                            boolean useMetaSkill, boolean skillAware, String appendixSource, int consolidateThreshold,
                            boolean useGate, String gateMetric, double gateMixedWeight, boolean useDensity, double densityWeight,
                            Set<String> leadingWords, int selEnvNum, int testEnvNum, boolean evalTest, String env, String skillInit,
                            String rewriteReasoningEffort, int rewriteMaxTokens, boolean codexTrace, boolean claudeTrace,
                            boolean backgroundEval, boolean jsonReask, GateSettings gateTest) {

    /** Reads and validates {@code cfg} through its typed view. */
    public static TrainSettings from(FlatConfig cfg) { return from(RunConfig.from(cfg, "")); }

    public static TrainSettings from(RunConfig rc) {
        RunConfig.Train t = rc.train();
        RunConfig.Gradient g = rc.gradient();
        RunConfig.Optimizer o = rc.optimizer();
        RunConfig.Evaluation e = rc.evaluation();
        RunConfig.Model m = rc.model();
        if (t.batchSize() <= 0) throw ConfigException.badValue("", "batch_size", t.batchSize(), "an integer > 0");
        if (g.mergeBatchSize() < 2) throw ConfigException.badValue("", "merge_batch_size", g.mergeBatchSize(), "an integer >= 2");
        UpdateMode mode = UpdateMode.parse(o.skillUpdateMode());
        new EditBudgetSchedule(o.lrScheduler(), 1, 1, 1); // validates the name
        String rewriteEffort = m.rewriteReasoningEffort();
        return new TrainSettings(t.numEpochs(), t.trainSize(), t.batchSize(), t.accumulation(), t.seed(),
                g.minibatchSize(), g.mergeBatchSize(), g.analystWorkers(), g.failureOnly(),
                o.editBudget(), o.minEditBudget(), // upstream's cfg.get("min_edit_budget", 2): a configured 0 stays 0
                o.lrScheduler(), o.lrControlMode(), mode,
                o.useSlowUpdate(), Math.max(1, o.slowUpdateSamples()), o.slowUpdateGateWithSelection(), o.longitudinalPairPolicy(),
                o.useMetaSkill(), o.useSkillAwareReflection(), o.skillAwareAppendixSource(), o.skillAwareConsolidateThreshold(),
                e.useGate(), e.gateMetric(), e.gateMixedWeight(), e.useSemanticDensity(), e.semanticDensityWeight(),
                leadingWords(e.leadingWords()), e.selEnvNum(), e.testEnvNum(), e.evalTest(), rc.env().name(), rc.env().skillInit(),
                rewriteEffort.isBlank() ? null : rewriteEffort, (int) Math.min(Integer.MAX_VALUE, m.rewriteMaxCompletionTokens()),
                m.targetBackend().equals("codex_exec") && m.codexTraceToOptimizer(),
                m.targetBackend().equals("claude_code_exec") && m.claudeTraceToOptimizer(),
                t.backgroundEval(), m.jsonReask(), GateSettings.from(rc.flat()));
    }

    static Set<String> leadingWords(Object v) {
        List<String> words = new ArrayList<>();
        if (v instanceof List<?> l) l.forEach(o -> words.add(String.valueOf(o).trim()));
        else if (v instanceof String s && !s.isBlank()) for (String p : s.split(",")) words.add(p.trim());
        if (words.isEmpty()) words.addAll(SkillDocument.DEFAULT_LEADING_WORDS);
        return Set.copyOf(words.stream().filter(w -> !w.isEmpty()).map(w -> w.toLowerCase(Locale.ROOT)).toList());
    }

    /** Returns ceil(train_size / (batch_size × accumulation)). */
    public int stepsPerEpoch(int trainSize) {
        long per = (long) batchSize * accumulation;
        return (int) ((trainSize + per - 1) / per);
    }

    /** Whether the skill-aware success analyst may emit appendix notes. */
    public boolean successNotes() { return skillAware && !appendixSource.equals("failure_only"); }
}
