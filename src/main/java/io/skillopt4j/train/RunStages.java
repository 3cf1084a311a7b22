package io.skillopt4j.train;

/** Immutable; assembled once per run by {@link Trainer}. The stages of one training and the optimizer they call. */
record RunStages(Optimizer optimizer, Rollout rollout, Reflect reflect, Aggregate aggregate, Select select, Update update,
                 Gate gate, Appendix appendix, SelectionEval selection, Longitudinal longitudinal, SlowUpdate slowUpdate,
                 MetaSkill metaSkill) {
    /** Reads (and caches) the prompts the stages will send, so no first call waits; failures are left to the stage. */
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
