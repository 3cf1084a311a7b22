package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Immutable. The flat, insertion-ordered key → value map that upstream's trainer receives
 * ({@code num_epochs}, {@code edit_budget}, {@code optimizer_backend}, ...). Values are what YAML and
 * {@code --cfg-options} produce: String, Boolean, Integer/Long, Double, List, Map or null.
 * Typed accessors follow Python's truthiness and numeric conversions and throw {@link ConfigException}
 * naming the key when a value has the wrong type.
 */
public final class FlatConfig {
    private final Map<String, Object> values;

    private FlatConfig(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Returns a config holding a copy of {@code values} (order kept). */
    public static FlatConfig of(Map<String, ?> values) {
        return new FlatConfig(new LinkedHashMap<>(values));
    }

    /** Returns an empty config. */
    public static FlatConfig empty() { return new FlatConfig(Map.of()); }

    /** Returns the values as an unmodifiable ordered map. */
    public Map<String, Object> asMap() { return values; }

    /** Returns the key set in insertion order. */
    public Set<String> keys() { return values.keySet(); }

    /** Returns true if the key is present (even with a null value). */
    public boolean has(String key) { return values.containsKey(key); }

    /** Returns the raw value or null. */
    public Object get(String key) { return values.get(key); }

    /** Returns a copy with {@code key} set to {@code value} (appended at the end if new). */
    public FlatConfig with(String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>(values);
        m.put(key, value);
        return new FlatConfig(m);
    }

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

    /** Returns the value as an int, or {@code def} when absent/null/"" ; bad values throw naming the key. */
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
            double d = n.doubleValue();
            if (n instanceof Double || n instanceof Float) {
                if (d != Math.rint(d)) throw ConfigException.badValue("", key, v, "an integer");
            }
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

    /**
     * Returns the value's Python truthiness, or {@code def} when absent or null. Strings "false", "0",
     * "no", "off" and "" are false (upstream compares such strings loosely in several places).
     */
    public boolean bool(String key, boolean def) {
        Object v = values.get(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.doubleValue() != 0;
        String s = String.valueOf(v).trim().toLowerCase(java.util.Locale.ROOT);
        return !(s.isEmpty() || s.equals("false") || s.equals("0") || s.equals("no") || s.equals("off") || s.equals("none"));
    }

    @Override public boolean equals(Object o) { return o instanceof FlatConfig f && f.values.equals(values); }

    @Override public int hashCode() { return values.hashCode(); }

    /** Redacted: secret-named keys are masked. */
    @Override public String toString() {
        return "FlatConfig" + io.skillopt4j.internal.Redactor.redact(values);
    }
}
