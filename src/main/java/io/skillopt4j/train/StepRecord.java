package io.skillopt4j.train;

import io.skillopt4j.backend.UsageMeter;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Not thread-safe; one per step. A {@code history.json} record under construction: an insertion-ordered map
 * in upstream's field order, plus the per-stage timing and token-delta helpers.
 */
public final class StepRecord {
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final Map<String, Object> timing = new LinkedHashMap<>();

    StepRecord(int step, int epoch, int stepInEpoch) {
        fields.put("step", step);
        fields.put("epoch", epoch);
        fields.put("step_in_epoch", stepInEpoch);
        fields.put("timing", timing);
        fields.put("tokens", new LinkedHashMap<String, Object>());
    }

    StepRecord put(String key, Object value) { fields.put(key, value); return this; }

    Object get(String key) { return fields.get(key); }

    /** Records a stage duration in seconds, rounded to 0.1 as upstream. */
    void time(String key, long millis) { timing.put(key, round(millis / 1000.0, 1)); }

    /**
     * Sets {@code tokens} to the per-stage difference between two meter snapshots. Unlike upstream, stages with no
     * call in this step are left out, so a record does not depend on what the process did before (resume).
     */
    void tokens(Map<String, UsageMeter.Counts> before, Map<String, UsageMeter.Counts> after) {
        Map<String, Object> t = new LinkedHashMap<>();
        after.forEach((stage, a) -> {
            UsageMeter.Counts b = before.get(stage);
            if (b != null && b.calls() == a.calls() && b.promptTokens() == a.promptTokens() && b.completionTokens() == a.completionTokens()) return;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("calls", a.calls() - (b == null ? 0 : b.calls()));
            m.put("prompt_tokens", a.promptTokens() - (b == null ? 0 : b.promptTokens()));
            m.put("completion_tokens", a.completionTokens() - (b == null ? 0 : b.completionTokens()));
            t.put(stage, m);
        });
        fields.put("tokens", t);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> tokens() { return (Map<String, Object>) fields.get("tokens"); }

    /** Returns the record map (live view). */
    public Map<String, Object> asMap() { return fields; }

    /** Python's {@code f"{x:.nf}"}: the exact binary value rounded half-even to n decimals. */
    public static String fixed(double x, int n) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        long k = scaled(x, n);
        if (k == NO_FAST_PATH) return new BigDecimal(x).setScale(n, RoundingMode.HALF_EVEN).toPlainString();
        String digits = Long.toString(Math.abs(k));
        if (n == 0) return (k < 0 ? "-" : "") + digits;
        if (digits.length() <= n) digits = "0".repeat(n - digits.length() + 1) + digits;
        int point = digits.length() - n;
        return (k < 0 ? "-" : "") + digits.substring(0, point) + "." + digits.substring(point);
    }

    /** Python's round(x, n) on the exact binary value (half-even). */
    public static double round(double x, int n) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return x;
        long k = scaled(x, n);
        if (k == NO_FAST_PATH) return new BigDecimal(x).setScale(n, RoundingMode.HALF_EVEN).doubleValue();
        return k == 0 ? 0.0 : k / POW10[n]; // a correctly rounded division, as BigDecimal.doubleValue for these sizes
    }

    private static final long NO_FAST_PATH = Long.MIN_VALUE;
    private static final double[] POW10 = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

    /**
     * x rounded half-even to n decimals, times 10^n, when x·10^n is under 2^31 and its fraction is clearly off a tie
     * (the product's error, under 2^-22, cannot cross .5 then); else NO_FAST_PATH and BigDecimal decides. Why: a cold
     * JVM (JDK 25 most of all) is slow to initialise BigDecimal, and the first step record's timings did that on the
     * training thread.
     */
    private static long scaled(double x, int n) {
        if (n < 0 || n >= POW10.length) return NO_FAST_PATH;
        double t = x * POW10[n];
        if (!(Math.abs(t) < 2_147_483_648.0)) return NO_FAST_PATH;
        double frac = Math.abs(t - Math.floor(t));
        if (Math.abs(frac - 0.5) < 1e-6) return NO_FAST_PATH;
        return (long) Math.rint(t);
    }
}
