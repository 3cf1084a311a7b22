package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable. The flat, insertion-ordered map upstream's trainer receives, values as YAML and {@code --cfg-options}
 * produce them. Typed accessors follow Python's conversions and throw a {@link ConfigException} naming the key.
 */
public final class FlatConfig {
    private final Map<String, Object> values;

    private FlatConfig(Map<String, ?> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A copy of {@code values}, order kept. */
    public static FlatConfig of(Map<String, ?> values) { return new FlatConfig(values); }

    public static FlatConfig empty() { return new FlatConfig(Map.of()); }

    public Map<String, Object> asMap() { return values; }

    /** Even with a null value. */
    public boolean has(String key) { return values.containsKey(key); }

    public Object get(String key) { return values.get(key); }

    /** Returns a copy with {@code key} set to {@code value} (appended at the end if new). */
    public FlatConfig with(String key, Object value) { return withAll(Collections.singletonMap(key, value)); }

    /** Returns a copy with every entry of {@code more} laid over this one. */
    public FlatConfig withAll(Map<String, ?> more) {
        Map<String, Object> m = new LinkedHashMap<>(values);
        m.putAll(more);
        return new FlatConfig(m);
    }

    /** Returns the value as a string, or {@code def} when absent or null. Numbers and booleans are printed. */
    public String string(String key, String def) {
        Object v = values.get(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b ? "True" : "False";
        return String.valueOf(v);
    }

    /** Returns the value as an int, or {@code def} when absent/null/"". */
    public int integer(String key, int def) {
        long l = longValue(key, def);
        if (l > Integer.MAX_VALUE || l < Integer.MIN_VALUE) throw ConfigException.badValue("", key, values.get(key), "an integer");
        return (int) l;
    }

    /** Returns the value as a long, or {@code def} when absent/null/"". */
    public long longValue(String key, long def) {
        Object v = values.get(key);
        if (v == null || (v instanceof String s && s.isBlank())) return def;
        if (v instanceof Boolean b) return b ? 1 : 0;
        if (v instanceof Number n) {
            if ((n instanceof Double || n instanceof Float) && n.doubleValue() != Math.rint(n.doubleValue()))
                throw ConfigException.badValue("", key, v, "an integer");
            return n.longValue();
        }
        try {
            return Long.parseLong(String.valueOf(v).trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", key, v, "an integer");
        }
    }

    /** Returns the value as a double, or {@code def} when absent/null/"". */
    public double decimal(String key, double def) {
        Object v = values.get(key);
        if (v == null || (v instanceof String s && s.isBlank())) return def;
        if (v instanceof Boolean b) return b ? 1 : 0;
        if (v instanceof Number n) return n.doubleValue();
        try {
            return Double.parseDouble(String.valueOf(v).trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", key, v, "a number");
        }
    }

    /** Python truthiness, or {@code def} when absent or null; "false", "0", "no", "off" and "none" are false too. */
    public boolean bool(String key, boolean def) {
        Object v = values.get(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.doubleValue() != 0;
        String s = String.valueOf(v).trim().toLowerCase(java.util.Locale.ROOT);
        return !List.of("", "false", "0", "no", "off", "none").contains(s);
    }

    @Override public boolean equals(Object o) { return o instanceof FlatConfig f && f.values.equals(values); }

    @Override public int hashCode() { return values.hashCode(); }

    /** Redacted: secret-named keys are masked. */
    @Override public String toString() {
        return "FlatConfig" + io.skillopt4j.internal.Redactor.redact(values);
    }
}
