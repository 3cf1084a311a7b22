package io.skillopt4j.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Immutable. Everything a resolution starts from, from the CLI or the notebook builder.
 *
 * @param config YAML file, or null for none
 * @param base   in-memory starting mapping (used when {@code config} is null; may be empty)
 * @param flags  legacy flags that were given: flag name (no dashes) → typed value
 * @param eval   apply {@code eval_only.py}'s rules instead of {@code train.py}'s
 */
public record ConfigRequest(Path config, Map<String, Object> base, List<Override> overrides,
                            Map<String, Object> flags, boolean eval) {
    public ConfigRequest {
        base = base == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(base));
        overrides = List.copyOf(overrides);
        flags = Collections.unmodifiableMap(new LinkedHashMap<>(flags));
    }

    /**
     * One {@code --cfg-options} item.
     *
     * @param key   text before the first {@code =}, as typed
     * @param raw   text after it (what credential and backend checks look at)
     * @param value {@link Coercion#cast(String)} of {@code raw} for CLI items, or a value set from code
     */
    public record Override(String key, String raw, Object value) {
        public static Override parse(String item) {
            String[] kv = ConfigFormat.split(item);
            return new Override(kv[0], kv[1], Coercion.cast(kv[1]));
        }

        /** An override set from code: strings are coerced exactly like CLI text, other values kept as typed. */
        public static Override typed(String key, Object value) {
            if (value instanceof String s) return new Override(key, s, Coercion.cast(s));
            return new Override(key, Coercion.pyStr(value), value);
        }
    }

    /** A YAML file (with its {@code _base_} chain) and nothing else. */
    public static ConfigRequest file(Path config) { return new ConfigRequest(config, Map.of(), List.of(), Map.of(), false); }

    /** An in-memory mapping shaped like a YAML file (structured or flat). */
    public static ConfigRequest map(Map<String, ?> base) {
        return new ConfigRequest(null, Values.copyMap(base), List.of(), Map.of(), false);
    }

    /** A later override wins. */
    public ConfigRequest withOverride(Override o) {
        return new ConfigRequest(config, base, Stream.concat(overrides.stream(), Stream.of(o)).toList(), flags, eval);
    }

    /** {@code os} before the existing overrides: defaults that the caller's own overrides beat. */
    public ConfigRequest withOverridesFirst(List<Override> os) {
        return new ConfigRequest(config, base, Stream.concat(os.stream(), overrides.stream()).toList(), flags, eval);
    }

    /** {@code null} removes the flag. */
    public ConfigRequest withFlag(String flag, Object typedValue) {
        Map<String, Object> f = new LinkedHashMap<>(flags);
        if (typedValue == null) f.remove(flag);
        else f.put(flag, typedValue);
        return new ConfigRequest(config, base, overrides, f, eval);
    }

    public ConfigRequest withEval(boolean e) { return new ConfigRequest(config, base, overrides, flags, e); }

    public ConfigRequest withConfig(Path file) { return new ConfigRequest(file, base, overrides, flags, eval); }

    public static List<Override> parseOverrides(List<String> items) {
        return items.stream().map(Override::parse).toList();
    }
}
