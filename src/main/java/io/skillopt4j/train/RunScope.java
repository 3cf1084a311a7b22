package io.skillopt4j.train;

import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import io.skillopt4j.run.RunWriter;

import java.time.Clock;

/**
 * Immutable; one per run. What the step pipeline and the end of the run share besides the stages and the run
 * state: the settings, the run folder's writer, the clock, the usage meter, the listener, the number of steps,
 * whether stages may start as soon as their inputs exist ({@code train.pipeline_stages}), whether a dollar cap is
 * set, and {@code train.max_errored_fraction}.
 */
record RunScope(TrainSettings settings, RunWriter writer, Clock clock, UsageMeter usage, TrainingListener listener,
                int totalSteps, boolean pipelined, boolean capped, double maxErrored) {
    void emit(TrainingEvent e) { listener.on(e); }
}
