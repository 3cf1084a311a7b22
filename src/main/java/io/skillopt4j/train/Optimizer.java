package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.internal.JsonReply;
import io.skillopt4j.internal.Redactor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Thread-safe. The optimizer model as the stages use it: one call per request with upstream's stage name,
 * token cap and retry count; JSON replies go through {@link JsonReply}. Failed calls and unusable replies
 * never throw from {@link #json}; they are recorded as fallbacks (drained per step into fallbacks.json).
 */
public final class Optimizer {
    private final ChatModel model;
    private final Runnable onCall;
    private final boolean jsonReask;
    private final List<Map<String, Object>> fallbacks = new ArrayList<>();

    /** An optimizer that, as SkillOpt, takes a reply without a JSON object as the stage's fallback (no re-ask). */
    public Optimizer(ChatModel model) { this(model, () -> {}, false); }

    /**
     * An optimizer that runs {@code onCall} as each call starts (the trainer opens background-rollout windows);
     * {@code jsonReask} ({@code model.json_reask}) lets the backend re-ask, within the call's attempts, when a reply
     * holds no JSON object, a deliberate deviation from SkillOpt (which never retries a parse failure).
     */
    Optimizer(ChatModel model, Runnable onCall, boolean jsonReask) {
        this.model = Objects.requireNonNull(model, "model");
        this.onCall = Objects.requireNonNull(onCall, "onCall");
        this.jsonReask = jsonReask;
    }

    /** Sends one call and returns the reply text; backend failures propagate. */
    public String text(String stage, String system, String user, int maxTokens, String effort, int retries) {
        ChatRequest req = ChatRequest.builder().system(system).user(user).stage(stage).maxCompletionTokens(maxTokens)
                .reasoningEffort(effort).retries(retries).jsonRequired(jsonReask).build();
        onCall.run();
        return model.chat(req).text();
    }

    /**
     * Sends one call and returns the reply's JSON object, or empty after recording why (call failure or
     * no recoverable object) under {@code stage} and {@code what}.
     */
    public Optional<Map<String, Object>> json(String stage, String what, String system, String user, int maxTokens, String effort, int retries) {
        String reply;
        try {
            reply = text(stage, system, user, maxTokens, effort, retries);
        } catch (RuntimeException e) {
            record(stage, what, "call_failed", e.getClass().getSimpleName() + ": " + e.getMessage());
            return Optional.empty();
        }
        Optional<Map<String, Object>> m = JsonReply.object(reply);
        if (m.isEmpty()) record(stage, what, "unparseable_reply", SkillDocument.prefix(reply, 200));
        return m;
    }

    /** Sends a standard optimizer call (16384 tokens, 3 attempts). */
    public Optional<Map<String, Object>> json(String stage, String what, String system, String user) {
        return json(stage, what, system, user, 16384, null, 3);
    }

    /** Records a fallback that the caller decided on (e.g. a reply of the wrong shape). */
    public void record(String stage, String what, String reason, String detail) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stage", stage);
        m.put("what", what);
        m.put("reason", reason);
        m.put("detail", Redactor.scrub(detail == null ? "" : detail));
        synchronized (fallbacks) { fallbacks.add(m); }
    }

    /** Returns and clears the recorded fallbacks. */
    public List<Map<String, Object>> drainFallbacks() {
        synchronized (fallbacks) {
            List<Map<String, Object>> out = new ArrayList<>(fallbacks);
            fallbacks.clear();
            return out;
        }
    }
}
