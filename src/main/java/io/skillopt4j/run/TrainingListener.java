package io.skillopt4j.run;

import java.util.List;

/**
 * Receives training events; every method is a default no-op, called from the training thread in event order. A listener
 * that throws is logged and ignored.
 * <pre>{@code
 * TrainingListener l = new TrainingListener() {
 *     public void stepFinished(TrainingEvent.StepFinished e) { System.out.println(e.step() + " " + e.action()); }
 * };
 * }</pre>
 */
public interface TrainingListener {
    default void runStarted(TrainingEvent.RunStarted e) {}
    default void stepStarted(TrainingEvent.StepStarted e) {}
    default void stageFinished(TrainingEvent.StageFinished e) {}
    default void gateDecision(TrainingEvent.GateDecision e) {}
    default void tokens(TrainingEvent.TokensUsed e) {}
    default void stepFinished(TrainingEvent.StepFinished e) {}
    default void epochFinished(TrainingEvent.EpochFinished e) {}
    default void runFinished(TrainingEvent.RunFinished e) {}

    TrainingListener NONE = new TrainingListener() {};

    /** Returns a listener that forwards to each of {@code listeners} in order, isolating failures. */
    static TrainingListener all(List<TrainingListener> listeners) { return new SafeListener(listeners); }

    default void on(TrainingEvent e) {
        if (e instanceof TrainingEvent.RunStarted x) runStarted(x);
        else if (e instanceof TrainingEvent.StepStarted x) stepStarted(x);
        else if (e instanceof TrainingEvent.StageFinished x) stageFinished(x);
        else if (e instanceof TrainingEvent.GateDecision x) gateDecision(x);
        else if (e instanceof TrainingEvent.TokensUsed x) tokens(x);
        else if (e instanceof TrainingEvent.StepFinished x) stepFinished(x);
        else if (e instanceof TrainingEvent.EpochFinished x) epochFinished(x);
        else if (e instanceof TrainingEvent.RunFinished x) runFinished(x);
    }
}
