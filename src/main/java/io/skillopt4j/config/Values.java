package io.skillopt4j.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Immutable (static helpers). Deep copy, deep merge and dotted lookups over YAML-shaped values. */
final class Values {
    private Values() {}

    /** Returns a deep, insertion-ordered copy of a mapping (keys become strings, like PyYAML's usual keys). */
    static Map<String, Object> copyMap(Object map) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) map).entrySet()) out.put(String.valueOf(e.getKey()), copy(e.getValue()));
        return out;
    }

    static Object copy(Object v) {
        if (v instanceof Map<?, ?> m) return copyMap(m);
        if (v instanceof List<?> l) return l.stream().map(Values::copy).collect(Collectors.toCollection(ArrayList::new));
        return v;
    }

    /** Upstream's deep merge: mappings merge recursively; anything else (lists, null) replaces wholesale. */
    static Map<String, Object> deepMerge(Map<String, Object> base, Map<String, Object> child) {
        Map<String, Object> out = copyMap(base);
        child.forEach((k, v) -> out.put(k, out.get(k) instanceof Map<?, ?> bm && v instanceof Map<?, ?> cm
                ? deepMerge(copyMap(bm), copyMap(cm)) : copy(v)));
        return out;
    }

    /** True when {@code cfg[section]} is a mapping holding {@code key} ({@code path = section.key}). */
    static boolean hasNested(Map<String, Object> cfg, String path) {
        int dot = path.indexOf('.');
        return cfg.get(path.substring(0, dot)) instanceof Map<?, ?> m && m.containsKey(path.substring(dot + 1));
    }

    static void removeNested(Map<String, Object> cfg, String path) {
        int dot = path.indexOf('.');
        if (cfg.get(path.substring(0, dot)) instanceof Map<?, ?> m) m.remove(path.substring(dot + 1));
    }

    /** Returns the value at a dotted path of nested mappings, or null when any level is missing. */
    static Object lookup(Map<String, Object> cfg, String dotted) {
        Object node = cfg;
        for (String part : dotted.split("\\.")) {
            if (!(node instanceof Map<?, ?> m) || !m.containsKey(part)) return null;
            node = m.get(part);
        }
        return node;
    }

    /** Python-style type name for messages. */
    static String typeName(Object v) {
        if (v == null) return "null";
        if (v instanceof Map<?, ?>) return "a mapping";
        if (v instanceof List<?>) return "a list";
        if (v instanceof Boolean) return "a boolean";
        if (v instanceof Integer || v instanceof Long || v instanceof java.math.BigInteger) return "an integer";
        if (v instanceof Number) return "a number";
        if (v instanceof String) return "a string";
        return "a " + v.getClass().getSimpleName();
    }
}
