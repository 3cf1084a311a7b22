package io.skillopt4j.env;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. The scored outcome of one task: {@code hard} (exact/binary success, may be a smoothed value in
 * [0,1]) and {@code soft} (partial credit) plus upstream's optional fields ({@code task_type},
 * {@code fail_reason}, {@code predicted_answer}, {@code n_turns}, ...) and env-specific extras, in
 * {@code fields}. {@link #toJson()} gives the {@code results.jsonl} line shape.
 */
public record RolloutResult(String id, double hard, double soft, Map<String, Object> fields) {
    public RolloutResult {
        Objects.requireNonNull(id, "id");
        fields = Fields.frozen(fields);
    }

    /** The field that marks an errored row: the item's model call failed after retries (not scored; attempted again). */
    public static final String ERRORED = "errored";

    /** True when this row is errored: no answer was scored, the item runs again on resume (see {@link RolloutRunner}). */
    public boolean isErrored() { return Boolean.TRUE.equals(fields.get(ERRORED)); }

    /** Returns a field as a string, or "" when absent or null. */
    public String str(String key) { return Fields.str(fields, key); }

    /** Returns the task type, or "other" when absent (upstream's bucket for untyped results). */
    public String taskType() {
        String t = str("task_type");
        return t.isEmpty() ? "other" : t;
    }

    /** Returns {@code fail_reason} or "". */
    public String failReason() { return str("fail_reason"); }

    /** Upstream's failure test: hard is falsy or below 1e-9. */
    public boolean isFailure() { return hard < 1e-9; }

    /** Upstream's success test in reflect: hard is truthy (non-zero). */
    public boolean isSuccess() { return hard != 0.0; }

    /** Returns the JSON map written to results.jsonl: id, hard, soft first, then the other fields. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("hard", hard == Math.rint(hard) && Math.abs(hard) < 1e15 ? (Object) (long) hard : (Object) hard);
        m.put("soft", soft);
        fields.forEach((k, v) -> { if (!m.containsKey(k)) m.put(k, v); });
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
