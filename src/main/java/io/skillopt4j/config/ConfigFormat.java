package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable (static functions). Upstream's structured/flat format rules: {@code is_structured},
 * {@code apply_overrides} and {@code flatten_config} (the flatten map plus {@code env.*} pass-through).
 */
public final class ConfigFormat {
    private static final List<String> ENV_NOT_PASSED = List.of("name", "skill_init", "out_root");

    private ConfigFormat() {}

    /** True iff some top-level key is a section name whose value is a mapping. */
    public static boolean isStructured(Map<String, ?> cfg) {
        return Flags.SECTIONS.stream().anyMatch(s -> cfg.get(s) instanceof Map<?, ?>);
    }

    /** A problem for each section that is no mapping ({@code env} may be a name): upstream would silently drop it. */
    static void checkSections(Map<String, ?> cfg, String source, List<String> problems) {
        for (String s : Flags.SECTIONS) {
            Object v = cfg.get(s);
            if (v == null || v instanceof Map<?, ?> || (s.equals("env") && v instanceof String)) continue;
            problems.add(source + ": " + s + " must be a mapping (a section of keys" + (s.equals("env") ? ") or an env name" : ")")
                    + ", got " + Values.typeName(v) + " " + (v instanceof String str ? "\"" + str + "\"" : String.valueOf(v)));
        }
    }

    /** Splits one {@code key=value} item at the first {@code =}; no {@code =} is an error. */
    public static String[] split(String item) {
        int eq = item.indexOf('=');
        if (eq < 0) throw new ConfigException("Invalid override (expected key=value): " + Coercion.pyRepr(item));
        return new String[] {item.substring(0, eq), item.substring(eq + 1)};
    }

    /** Applies {@code key=value} items in order (values coerced bool → int → float → string); mutates cfg. */
    public static void applyOverrides(Map<String, Object> cfg, List<String> items) {
        boolean structured = isStructured(cfg);
        for (String item : items) {
            String[] kv = split(item);
            set(cfg, kv[0], Coercion.cast(kv[1]), structured, "--cfg-options " + item);
        }
    }

    /** Sets one already-typed override the way {@code apply_overrides} files it; {@code item} names it in errors. */
    static void set(Map<String, Object> cfg, String key, Object value, boolean structured, String item) {
        int dot = key.indexOf('.');
        if (dot >= 0) {
            String section = key.substring(0, dot);
            String sub = key.substring(dot + 1);
            if (section.equals("model")) sub = ConfigLoader.canonicalKey(sub);
            String flat = Flags.flattenMap().get(section + "." + sub);
            if (!structured && flat != null) cfg.put(flat, value);
            else if (!structured && section.equals("env")) cfg.put(sub, value);
            else setIn(cfg, section, sub, value, !cfg.containsKey(section), item);
            return;
        }
        String k = ConfigLoader.canonicalKey(key);
        FlagSpec f = structured ? Flags.byKey(k).filter(FlagSpec::mapped).orElse(null) : null;
        if (f != null) setIn(cfg, f.section(), f.leaf(), value, true, item);
        else cfg.put(k, value);
    }

    /** Sets {@code section.leaf}, creating the section when absent (or null, with {@code nullIsAbsent}). */
    @SuppressWarnings("unchecked")
    private static void setIn(Map<String, Object> cfg, String section, String leaf, Object value, boolean nullIsAbsent,
                              String item) {
        Object sec = cfg.get(section);
        if (sec == null && nullIsAbsent) cfg.put(section, sec = new LinkedHashMap<String, Object>());
        if (!(sec instanceof Map<?, ?>)) {
            throw new ConfigException(item + ": cannot set " + section + "." + leaf + " because "
                    + section + " is " + Values.typeName(sec) + ", not a mapping");
        }
        ((Map<String, Object>) sec).put(leaf, value);
    }

    /** The flat config upstream's trainer receives (a shallow copy for flat input). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> flatten(Map<String, Object> input) {
        Map<String, Object> cfg = Values.copyMap(input);
        ConfigLoader.normaliseCodexAliases(cfg);
        if (!isStructured(cfg)) return cfg;
        Map<String, Object> out = new LinkedHashMap<>();
        cfg.forEach((k, v) -> {
            if (!Flags.SECTIONS.contains(k)) out.put(k, v);
        });
        Flags.flattenMap().forEach((path, key) -> {
            if (Values.hasNested(cfg, path)) out.put(key, Values.lookup(cfg, path));
        });
        if (cfg.get("env") instanceof Map<?, ?> env) {
            ((Map<String, Object>) env).forEach((k, v) -> {
                if (!ENV_NOT_PASSED.contains(k)) out.put(k, v);
            });
        }
        return out;
    }
}
