package io.skillopt4j.train;

/**
 * Immutable; assembled once per run by {@link Trainer}. The stages of one training: the optimizer every
 * optimizer-side stage calls through, the step stages (rollout → reflect → aggregate → select → update → gate,
 * appendix, selection evaluation) and the epoch stages (longitudinal comparison, slow update, meta skill).
 */
record RunStages(Optimizer optimizer, Rollout rollout, Reflect reflect, Aggregate aggregate, Select select, Update update,
                 Gate gate, Appendix appendix, SelectionEval selection, Longitudinal longitudinal, SlowUpdate slowUpdate,
                 MetaSkill metaSkill) {
    /**
     * Reads the system prompts the optimizer stages of {@code s} will send (bundled resources, the benchmark's composed
     * analyst prompts; each is cached once read), so that no stage's first call waits for the jar and a JSON parse.
     * Meant for a daemon thread while the first target calls are in flight; a prompt that cannot be read is left to
     * the stage that needs it, which reports it.
     */
    void preloadPrompts(TrainSettings s) {
        try {
            reflect.systemPrompt(true);
            reflect.systemPrompt(false);
            String suffix = s.updateMode().promptSuffix();
            for (String name : new String[] {"merge_failure", "merge_success", "merge_final"}) Prompts.generic(name + suffix);
            Prompts.generic(s.updateMode() == UpdateMode.REWRITE ? "ranking_rewrite" : "ranking");
            if (s.useSlowUpdate()) Prompts.generic("slow_update");
            if (s.useMetaSkill()) Prompts.generic("meta_skill");
        } catch (RuntimeException ignored) {
            // only an early read of what the stages read anyway
        }
    }
}
