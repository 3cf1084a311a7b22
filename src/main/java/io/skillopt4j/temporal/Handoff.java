package io.skillopt4j.temporal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Thread-safe. Hands each activity result of a stage workflow hosted in this JVM to the coordinator thread waiting
 * for it, so it need not wait for the workflow to complete, and a rollout's items are written as they finish. A result
 * not handed over here (a workflow hosted elsewhere, or read after a restart) comes with the workflow's result.
 */
final class Handoff {
    private static final Map<String, BiConsumer<Integer, String>> LISTENERS = new ConcurrentHashMap<>();
    /** Off: nothing is handed over, as when another process runs the workflows. */
    private static volatile boolean off;

    private Handoff() {}

    /** {@code l} gets each result's index and JSON; it must not block (it runs on a workflow thread). */
    static void listen(String workflowId, BiConsumer<Integer, String> l) { LISTENERS.put(workflowId, l); }

    static void stop(String workflowId) { LISTENERS.remove(workflowId); }

    /** Turns the handover off or on for this JVM (tests of the coordinator's fallback). */
    static void off(boolean value) { off = value; }

    /** Called by workflow code, also on replay: a second delivery is ignored and no command depends on it. */
    static void deliver(String workflowId, int index, String json) {
        BiConsumer<Integer, String> l = off ? null : LISTENERS.get(workflowId);
        if (l == null) return;
        try {
            l.accept(index, json);
        } catch (RuntimeException ignored) {
            // the coordinator falls back to the workflow's own result
        }
    }
}
