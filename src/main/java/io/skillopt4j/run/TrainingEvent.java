package io.skillopt4j.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** Immutable. The events a training run emits to {@link TrainingListener}s; maps use upstream's field names. */
public sealed interface TrainingEvent {
    /** The run folder is ready; {@code resumeFrom} is the first step that will run (1 on a fresh run). */
    record RunStarted(Path outRoot, int totalSteps, int stepsPerEpoch, int numEpochs, int resumeFrom) implements TrainingEvent {}

    record StepStarted(int step, int epoch, int stepInEpoch, int totalSteps) implements TrainingEvent {}

    /**
     * A stage of a step, an epoch boundary or the run finished (step 0: {@code baseline}, {@code run_folder}; the last
     * step: {@code final_selection}).
     */
    record StageFinished(int step, String stage, Duration elapsed, String detail) implements TrainingEvent {}

    /** The gate decided on a candidate: action is accept_new_best, accept, reject or force_accept. */
    record GateDecision(int step, String action, double candidateScore, double currentScore, double bestScore) implements TrainingEvent {}

    /** Token use of one step per stage: {stage: {calls, prompt_tokens, completion_tokens}}. */
    record TokensUsed(int step, Map<String, Object> byStage) implements TrainingEvent {
        public TokensUsed { byStage = Map.copyOf(byStage); }
    }

    /** A step finished and was persisted; {@code record} is its history entry. */
    record StepFinished(int step, int totalSteps, String action, Map<String, Object> record) implements TrainingEvent {
        public StepFinished { record = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(record)); }
    }

    /** An epoch boundary (slow update, meta skill) finished. */
    record EpochFinished(int epoch, String slowUpdateAction, String metaSkillAction, double currentScore, double bestScore) implements TrainingEvent {}

    /** The run ended: {@code stopped} when a stop was requested (folder resumable), else the summary was written. */
    record RunFinished(Path outRoot, boolean stopped, Map<String, Object> summary) implements TrainingEvent {
        public RunFinished { summary = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(summary)); }
    }
}
