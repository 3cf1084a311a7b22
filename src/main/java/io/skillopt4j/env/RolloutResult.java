package io.skillopt4j.env;

import io.skillopt4j.internal.Json;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Immutable. The scored outcome of one task; {@link #toJson()} gives its {@code results.jsonl} line. */
public record RolloutResult(String id, double hard, double soft, Map<String, Object> fields) {
    public RolloutResult {
        Objects.requireNonNull(id, "id");
        fields = Fields.frozen(fields);
    }

    /** The field that marks an errored row (not scored; attempted again). */
    public static final String ERRORED = "errored";

    public boolean isErrored() { return Boolean.TRUE.equals(fields.get(ERRORED)); }

    /** A field as a string, or "" when absent or null. */
    public String str(String key) { return Objects.toString(fields.get(key), ""); }

    /** The task type, or upstream's "other". */
    public String taskType() {
        String t = str("task_type");
        return t.isEmpty() ? "other" : t;
    }

    public String failReason() { return str("fail_reason"); }

    /** Upstream's failure test: hard is falsy or below 1e-9. */
    public boolean isFailure() { return hard < 1e-9; }

    /** Upstream's success test in reflect: hard is truthy (non-zero). */
    public boolean isSuccess() { return hard != 0.0; }

    /** The results.jsonl map: id, hard, soft, then the other fields. */
    public Map<String, Object> toJson() {
        Object h = hard == Math.rint(hard) && Math.abs(hard) < 1e15 ? (Object) (long) hard : (Object) hard;
        Map<String, Object> m = Json.obj("id", id, "hard", h, "soft", soft);
        fields.forEach(m::putIfAbsent); // id, hard and soft are never null
        return m;
    }

    /** Parses one results.jsonl map (Python or Java written). Missing hard/soft count as 0. */
    public static RolloutResult fromJson(Map<String, Object> m) {
        Map<String, Object> rest = new LinkedHashMap<>(m);
        Object id = rest.remove("id");
        double hard = num(rest.remove("hard"));
        double soft = num(rest.remove("soft"));
        return new RolloutResult(id == null ? "" : String.valueOf(id), hard, soft, rest);
    }

    private static double num(Object o) {
        if (o instanceof Number n) return n.doubleValue();
        if (o instanceof Boolean b) return b ? 1 : 0;
        if (o instanceof String s && !s.isBlank()) {
            try { return Double.parseDouble(s.trim()); } catch (NumberFormatException e) { return 0; }
        }
        return 0;
    }
}
