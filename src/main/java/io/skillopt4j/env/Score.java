package io.skillopt4j.env;

import io.skillopt4j.internal.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/** Immutable. A scorer's verdict on one answer, with optional extra result fields and a failure reason. */
public record Score(double hard, double soft, String failReason, Map<String, Object> extras) {
    public Score {
        failReason = failReason == null ? "" : failReason;
        extras = extras == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(extras));
    }

    public static Score of(double hard, double soft) { return new Score(hard, soft, "", Map.of()); }

    /** A binary score: hard = soft = 1 or 0. */
    public static Score binary(boolean ok) { return of(ok ? 1 : 0, ok ? 1 : 0); }

    public Score withFailReason(String reason) { return new Score(hard, soft, reason, extras); }

    public Score with(String key, Object value) {
        return new Score(hard, soft, failReason, Json.put(new LinkedHashMap<>(extras), key, value));
    }
}
