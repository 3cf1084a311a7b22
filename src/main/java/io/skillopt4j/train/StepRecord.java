package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.backend.UsageMeter;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/** Not thread-safe; one per step. A {@code history.json} record under construction, in upstream's field order. */
public final class StepRecord {
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final Map<String, Object> timing = new LinkedHashMap<>();

    StepRecord(int step, int epoch, int stepInEpoch) {
        putAll("step", step, "epoch", epoch, "step_in_epoch", stepInEpoch, "timing", timing,
                "tokens", new LinkedHashMap<String, Object>());
    }

    StepRecord put(String key, Object value) { fields.put(key, value); return this; }

    void putAll(Object... keysAndValues) { Json.put(fields, keysAndValues); }

    Object get(String key) { return fields.get(key); }

    /** Records a stage duration in seconds, rounded to 0.1 as upstream. */
    void time(String key, long millis) { timing.put(key, round(millis / 1000.0, 1)); }

    /** The record's {@code tokens}: the per-stage difference; unlike upstream, idle stages are left out (resume). */
    static Map<String, Object> tokens(Map<String, UsageMeter.Counts> before, Map<String, UsageMeter.Counts> after) {
        Map<String, Object> t = new LinkedHashMap<>();
        after.forEach((stage, a) -> {
            UsageMeter.Counts b = before.get(stage);
            if (b != null && b.calls() == a.calls() && b.promptTokens() == a.promptTokens() && b.completionTokens() == a.completionTokens()) return;
            t.put(stage, Json.obj("calls", a.calls() - (b == null ? 0 : b.calls()),
                    "prompt_tokens", a.promptTokens() - (b == null ? 0 : b.promptTokens()),
                    "completion_tokens", a.completionTokens() - (b == null ? 0 : b.completionTokens())));
        });
        return t;
    }

    /** Returns the record map (live view). */
    public Map<String, Object> asMap() { return fields; }

    /** Python's {@code f"{x:.nf}"}: the exact binary value rounded half-even to n decimals. */
    public static String fixed(double x, int n) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        return new BigDecimal(x).setScale(n, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Python's round(x, n) on the exact binary value (half-even). */
    public static double round(double x, int n) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return x;
        return new BigDecimal(x).setScale(n, RoundingMode.HALF_EVEN).doubleValue();
    }
}
