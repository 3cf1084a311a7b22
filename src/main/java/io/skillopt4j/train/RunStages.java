package io.skillopt4j.train;

/**
 * Immutable; assembled once per run by {@link Trainer}. The stages of one training: the optimizer every
 * optimizer-side stage calls through, the step stages (rollout → reflect → aggregate → select → update → gate,
 * appendix, selection evaluation) and the epoch stages (longitudinal comparison, slow update, meta skill).
 */
record RunStages(Optimizer optimizer, Rollout rollout, Reflect reflect, Aggregate aggregate, Select select, Update update,
                 Gate gate, Appendix appendix, SelectionEval selection, Longitudinal longitudinal, SlowUpdate slowUpdate,
                 MetaSkill metaSkill) {}
