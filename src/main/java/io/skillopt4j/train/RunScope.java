package io.skillopt4j.train;

import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import io.skillopt4j.run.RunWriter;

import java.time.Clock;

/** Immutable; one per run. {@code pipelined}: {@code train.pipeline_stages}; {@code capped}: a dollar cap is set. */
record RunScope(TrainSettings settings, RunWriter writer, Clock clock, UsageMeter usage, TrainingListener listener,
                int totalSteps, boolean pipelined, boolean capped, double maxErrored) {
    void emit(TrainingEvent e) { listener.on(e); }
}
