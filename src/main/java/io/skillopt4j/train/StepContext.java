package io.skillopt4j.train;

import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Immutable reference to a mutable record. What every stage of one training step knows about the step. */
record StepContext(int epoch, int stepInEpoch, int step, List<BatchSpec> plan, String meta, Path stepDir, StepRecord rec,
                   long startMillis, Map<String, UsageMeter.Counts> usageBefore) {
    /** The plan's batch {@code a} of this step's accumulation group of {@code accumulation} batches. */
    BatchSpec batch(int a, int accumulation) { return plan.get(stepInEpoch * accumulation + a); }
}
