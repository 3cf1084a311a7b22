package io.skillopt4j.run;

import java.util.List;

/** Thread-safe if its listeners are. Forwards events to several listeners; one that throws is logged and ignored. */
final class SafeListener implements TrainingListener {
    private static final System.Logger LOG = System.getLogger(SafeListener.class.getName());
    private final List<TrainingListener> listeners;

    SafeListener(List<TrainingListener> listeners) { this.listeners = List.copyOf(listeners); }

    @Override public void on(TrainingEvent e) {
        for (TrainingListener l : listeners) {
            try {
                l.on(e);
            } catch (RuntimeException | Error ex) {
                if (ex instanceof VirtualMachineError) throw ex;
                LOG.log(System.Logger.Level.WARNING, "training listener " + l.getClass().getName() + " failed on "
                        + e.getClass().getSimpleName() + ": " + ex);
            }
        }
    }

    @Override public void runStarted(TrainingEvent.RunStarted e) { on(e); }
    @Override public void stepStarted(TrainingEvent.StepStarted e) { on(e); }
    @Override public void stageFinished(TrainingEvent.StageFinished e) { on(e); }
    @Override public void gateDecision(TrainingEvent.GateDecision e) { on(e); }
    @Override public void tokens(TrainingEvent.TokensUsed e) { on(e); }
    @Override public void stepFinished(TrainingEvent.StepFinished e) { on(e); }
    @Override public void epochFinished(TrainingEvent.EpochFinished e) { on(e); }
    @Override public void runFinished(TrainingEvent.RunFinished e) { on(e); }
}
