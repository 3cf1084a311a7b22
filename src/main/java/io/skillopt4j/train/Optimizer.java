package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.ErroredHalt;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.internal.JsonReply;
import io.skillopt4j.internal.Redactor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Thread-safe. The optimizer model as the stages use it; unusable replies are recorded as fallbacks. An errored
 * non-analyst call throws {@link ErroredHalt}: a fallback would record a decision the model never made.
 */
public final class Optimizer {
    private final ChatModel model;
    private final Runnable onCall;
    private final boolean jsonReask;
    private final List<Map<String, Object>> fallbacks = new ArrayList<>();
    private final UsageMeter meter;
    private final java.util.concurrent.atomic.AtomicInteger analystCalls = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger analystErrored = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicReference<String> analystReason = new java.util.concurrent.atomic.AtomicReference<>();

    /** The stage whose errored calls are tolerated and counted, not a halt. */
    static final String ANALYST = "analyst";

    /** An optimizer that, as SkillOpt, takes a reply without a JSON object as the stage's fallback (no re-ask). */
    public Optimizer(ChatModel model) { this(model, () -> {}, false, null); }

    /** Runs {@code onCall} as each call starts; {@code jsonReask}: re-ask for a JSON object, unlike SkillOpt. */
    Optimizer(ChatModel model, Runnable onCall, boolean jsonReask) { this(model, onCall, jsonReask, null); }

    /** As above, counting errored calls and fallbacks into {@code meter} (null = not counted). */
    Optimizer(ChatModel model, Runnable onCall, boolean jsonReask, UsageMeter meter) {
        this.model = Objects.requireNonNull(model, "model");
        this.onCall = Objects.requireNonNull(onCall, "onCall");
        this.jsonReask = jsonReask;
        this.meter = meter;
    }

    /** Sends one call and returns the reply; a failed non-analyst call throws {@link ErroredHalt}. */
    public String text(String stage, String system, String user, int maxTokens, String effort, int retries) {
        ChatRequest req = ChatRequest.builder().system(system).user(user).stage(stage).maxCompletionTokens(maxTokens)
                .reasoningEffort(effort).retries(retries).jsonRequired(jsonReask).build();
        onCall.run();
        boolean analyst = ANALYST.equals(stage);
        if (analyst) analystCalls.incrementAndGet();
        try {
            return model.chat(req).text();
        } catch (io.skillopt4j.ConfigException | StopRequested e) {
            throw e;
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) throw e; // the run is stopping: not the provider's failure
            if (meter != null) meter.recordFault("optimizer", stage, "errored");
            String reason = e.getClass().getSimpleName() + ": " + Redactor.scrub(String.valueOf(e.getMessage()));
            if (!analyst) throw new ErroredHalt(stage, 1, 1, reason);
            analystErrored.incrementAndGet();
            analystReason.compareAndSet(null, reason);
            throw e;
        }
    }

    /** Stops the step when too many analyst calls errored, rather than record their missing patches as a skip. */
    void haltIfAnalystsErrored(double maxErrored) {
        AnalystCounts c = takeAnalystCounts();
        if (c.errored() > 0 && (c.errored() >= c.calls() || c.errored() > maxErrored * c.calls()))
            throw new ErroredHalt(ANALYST, c.errored(), c.calls(), c.firstReason());
    }

    /** Immutable. Analyst calls made and errored since the last {@link #takeAnalystCounts}, with the first reason. */
    record AnalystCounts(int calls, int errored, String firstReason) {}

    /** How many analyst calls errored since the last {@link #takeAnalystCounts}. */
    int analystErrors() { return analystErrored.get(); }

    AnalystCounts takeAnalystCounts() {
        return new AnalystCounts(analystCalls.getAndSet(0), analystErrored.getAndSet(0), analystReason.getAndSet(null));
    }

    /** Sends one call and returns the reply's JSON object, or empty after recording why as a fallback. */
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
        Map<String, Object> m = Json.obj("stage", stage, "what", what, "reason", reason,
                "detail", Redactor.scrub(detail == null ? "" : detail));
        synchronized (fallbacks) { fallbacks.add(m); }
        // a call that failed is counted as errored where it failed (text), not as a fallback
        if (meter != null && !"call_failed".equals(reason)) meter.recordFault("optimizer", stage, "fallbacks");
    }

    public List<Map<String, Object>> drainFallbacks() {
        synchronized (fallbacks) {
            List<Map<String, Object>> out = new ArrayList<>(fallbacks);
            fallbacks.clear();
            return out;
        }
    }
}
