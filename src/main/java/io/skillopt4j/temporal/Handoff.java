package io.skillopt4j.temporal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread-safe. Hands each activity result of a stage workflow to the coordinator thread waiting for it, inside the
 * coordinator's JVM (which hosts the stage workflows): the result is in the workflow's history as soon as the
 * workflow code sees it, so the coordinator need not wait for the workflow to complete and for the close event to
 * come back (two more server round trips per stage), and a rollout's items are written as they finish instead of
 * all at the end. Nothing else depends on it: a result not handed over here (a workflow hosted elsewhere, or read
 * after a restart) arrives with the workflow's result, as before.
 */
final class Handoff {
    /** Receives result {@code index} of a workflow; must not block (it runs on a workflow thread). */
    @FunctionalInterface
    interface Listener {
        void result(int index, String json);
    }

    private static final Map<String, Listener> LISTENERS = new ConcurrentHashMap<>();
    /** Off: nothing is handed over, as when another process runs the workflows (tests of that path). */
    private static volatile boolean off;

    private Handoff() {}

    static void listen(String workflowId, Listener l) { LISTENERS.put(workflowId, l); }

    static void stop(String workflowId) { LISTENERS.remove(workflowId); }

    /** Turns the handover off or on for this JVM (tests of the coordinator's fallback, the workflow's own result). */
    static void off(boolean value) { off = value; }

    /**
     * Called by workflow code, also on replay: delivering a result twice is harmless (the listener keeps the
     * first), and no command depends on it, so the workflow stays deterministic.
     */
    static void deliver(String workflowId, int index, String json) {
        Listener l = off ? null : LISTENERS.get(workflowId);
        if (l == null) return;
        try {
            l.result(index, json);
        } catch (RuntimeException ignored) {
            // the coordinator falls back to the workflow's own result
        }
    }
}
