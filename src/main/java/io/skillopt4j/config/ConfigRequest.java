package io.skillopt4j.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable. Everything a resolution starts from, whether it came from the CLI or the notebook builder:
 * the YAML file (or an in-memory mapping), the {@code --cfg-options} items, the legacy flags that were
 * given (typed, by flag name) and which script's rules apply (train or eval).
 *
 * @param config    YAML file, or null for none
 * @param base      in-memory starting mapping (used when {@code config} is null; may be empty)
 * @param overrides {@code --cfg-options} items in order
 * @param flags     legacy flags that were given: flag name (no dashes) → typed value
 * @param eval      apply {@code eval_only.py}'s rules instead of {@code train.py}'s
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
     * @param key   text before the first {@code =} (as typed; stripped where upstream strips)
     * @param raw   text after the first {@code =} (what credential and backend checks look at)
     * @param value typed value: {@link Coercion#cast(String)} of {@code raw} for CLI items, or a value set from code
     */
    public record Override(String key, String raw, Object value) {
        /** Parses {@code key=value} and coerces the value as upstream does. */
        public static Override parse(String item) {
            String[] kv = ConfigFormat.split(item);
            return new Override(kv[0], kv[1], Coercion.cast(kv[1]));
        }

        /** An override set from code: strings are coerced exactly like CLI text, other values kept as typed. */
        public static Override typed(String key, Object value) {
            if (value instanceof String s) return new Override(key, s, Coercion.cast(s));
            return new Override(key, Coercion.pyStr(value), value);
        }

        /** Returns {@code key=raw}, the item as typed on a command line. */
        public String item() { return key + "=" + raw; }
    }

    /** Returns a request for a YAML file (with its {@code _base_} chain) and nothing else. */
    public static ConfigRequest file(Path config) { return new ConfigRequest(config, Map.of(), List.of(), Map.of(), false); }

    /** Returns a request for an in-memory mapping shaped like a YAML file (structured or flat). */
    public static ConfigRequest map(Map<String, ?> base) {
        return new ConfigRequest(null, Values.copyMap(base), List.of(), Map.of(), false);
    }

    /** Returns a copy with {@code o} appended to the overrides (a later override wins). */
    public ConfigRequest withOverride(Override o) {
        List<Override> os = new ArrayList<>(overrides);
        os.add(o);
        return new ConfigRequest(config, base, os, flags, eval);
    }

    /** Returns a copy with {@code os} put before the existing overrides (defaults that the caller's own overrides beat). */
    public ConfigRequest withOverridesFirst(List<Override> os) {
        List<Override> all = new ArrayList<>(os);
        all.addAll(overrides);
        return new ConfigRequest(config, base, all, flags, eval);
    }

    /** Returns a copy with the typed legacy flag set ({@code null} removes it). */
    public ConfigRequest withFlag(String flag, Object typedValue) {
        Map<String, Object> f = new LinkedHashMap<>(flags);
        if (typedValue == null) f.remove(flag);
        else f.put(flag, typedValue);
        return new ConfigRequest(config, base, overrides, f, eval);
    }

    /** Returns a copy that applies eval_only's rules ({@code true}) or train's. */
    public ConfigRequest withEval(boolean e) { return new ConfigRequest(config, base, overrides, flags, e); }

    /** Returns a copy reading {@code file} instead of the current file or mapping. */
    public ConfigRequest withConfig(Path file) { return new ConfigRequest(file, base, overrides, flags, eval); }

    /** Parses CLI {@code --cfg-options} items. */
    public static List<Override> parseOverrides(List<String> items) {
        List<Override> out = new ArrayList<>();
        for (String s : items) out.add(Override.parse(s));
        return out;
    }
}
