package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Not thread-safe; one per validation. Reads typed values of a flat config for {@link RunConfig}. A bad value is
 * recorded as one line and read as a fallback, so that every problem of a config is reported at once.
 */
final class TypedReader {
    /** Trainer-side defaults that differ from the base YAML's values (used when a key is absent). */
    private static final Map<String, Object> CONSUMER_DEFAULTS = Map.of("lr_scheduler", "constant",
            "use_slow_update", false, "use_meta_skill", false, "rewrite_reasoning_effort", "high",
            "codex_trace_to_optimizer", false, "reasoning_effort", "");

    private final FlatConfig flat;
    private final String source;
    private final java.util.Set<String> problems = new java.util.LinkedHashSet<>();
    private final java.util.Set<String> badKeys = new java.util.HashSet<>();

    TypedReader(FlatConfig flat, String source) {
        this.flat = flat;
        this.source = source;
    }

    Object raw(String key) {
        return flat.has(key) ? flat.get(key) : defaultOf(key);
    }

    /** The value a consumer uses when {@code key} is absent: the trainer-side default, else the table's. */
    static Object defaultOf(String key) {
        if (CONSUMER_DEFAULTS.containsKey(key)) return CONSUMER_DEFAULTS.get(key);
        return Flags.byKey(key).map(FlagSpec::defaultValue).orElse(null);
    }

    /** Checks every present table key of type int/float/bool (strings that parse are fine); choices are read explicitly. */
    void checkTable() {
        for (FlagSpec f : Flags.ALL) {
            if (f.retired() || !flat.has(f.key())) continue;
            Object v = flat.get(f.key());
            if (v == null || "".equals(v)) continue;
            switch (f.type()) {
                case INT -> integer(f.key(), Long.MIN_VALUE);
                case FLOAT -> decimal(f.key(), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
                case BOOL -> bool(f.key());
                default -> { }
            }
        }
    }

    /** How the key is named in messages: its structured path, with the flat name when renamed. */
    static String name(String key) {
        return Flags.byKey(key).map(f -> f.renamed() ? f.path() + " (" + key + ")" : f.path()).orElse(key);
    }

    /** Records a problem with {@code key} and returns {@code fallback}, the value reading goes on with. */
    <T> T bad(String key, Object value, String allowed, T fallback) { return bad(key, value, allowed, fallback, null); }

    /** Like {@link #bad(String, Object, String, Object)}, adding "did you mean {@code closest}?" when there is one. */
    <T> T bad(String key, Object value, String allowed, T fallback, String closest) {
        if (!badKeys.add(key)) return fallback; // one line per key (checkTable reads typed keys again)
        problems.add(ConfigException.badValue(source, name(key), value, allowed).getMessage()
                + (closest == null ? "" : "; did you mean " + closest + "?"));
        return fallback;
    }

    List<String> problems() { return List.copyOf(problems); }

    /** Checks that {@code key}, when set, is an http(s) URL with a host (a typo would otherwise fail at the first call). */
    void url(String key) {
        Object v = raw(key);
        if (v == null || "".equals(v)) return;
        String problem = Checks.url(Coercion.pyStr(v));
        if (problem != null) bad(key, v, problem, null);
    }

    String str(String key) {
        Object v = raw(key);
        if (v == null) return "";
        if (v instanceof Map<?, ?> || v instanceof List<?>) return bad(key, v, "a string", "");
        return Coercion.pyStr(v);
    }

    long integer(String key, long min) {
        Object v = raw(key);
        Long l = asLong(v);
        long fallback = min == Long.MIN_VALUE ? 0 : min;
        if (l == null || l < min) return bad(key, v, "an integer" + (min == Long.MIN_VALUE ? "" : " >= " + min), fallback);
        return l;
    }

    /** Null and "" mean "not set". */
    Optional<Long> optionalInteger(String key, long min) {
        Object v = raw(key);
        return v == null || "".equals(v) ? Optional.empty() : Optional.of(integer(key, min));
    }

    int intValue(String key, int min) {
        long l = integer(key, min);
        if (l > Integer.MAX_VALUE) return bad(key, raw(key), "an integer <= " + Integer.MAX_VALUE, Math.max(min, 0));
        return (int) l;
    }

    private static Long asLong(Object v) {
        if (v instanceof Integer || v instanceof Long) return ((Number) v).longValue();
        if (v instanceof BigInteger b) return b.bitLength() < 64 ? b.longValue() : null;
        if (!(v instanceof String s)) return null;
        return Coercion.pythonInt(s).filter(n -> !(n instanceof BigInteger)).map(Number::longValue).orElse(null);
    }

    double decimal(String key, double min, double max) {
        Object v = raw(key);
        Double d = null;
        if (v instanceof Number n && !(v instanceof BigInteger)) d = n.doubleValue();
        else if (v instanceof String s) d = Coercion.pythonFloat(s).orElse(null);
        String range = min == Double.NEGATIVE_INFINITY ? "" : max == Double.POSITIVE_INFINITY ? " >= " + Checks.fmt(min)
                : " in [" + Checks.fmt(min) + ", " + Checks.fmt(max) + "]";
        double fallback = min == Double.NEGATIVE_INFINITY ? 0 : min;
        if (d == null || d.isNaN() || d < min || d > max) return bad(key, v, "a number" + range, fallback);
        return d;
    }

    boolean bool(String key) {
        Object v = raw(key);
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof Integer i && (i == 0 || i == 1)) return i == 1;
        if (v instanceof String s) {
            String l = s.strip().toLowerCase(Locale.ROOT);
            if (List.of("true", "yes", "1", "on").contains(l)) return true;
            if (List.of("false", "no", "0", "off", "").contains(l)) return false;
        }
        return bad(key, v, "true or false", false);
    }

    /** Upstream's {@code is not False} test: only a literal false (or the string "false") turns the key off. */
    boolean notFalse(String key) {
        Object v = raw(key);
        return !(Boolean.FALSE.equals(v) || (v instanceof String s && s.strip().equalsIgnoreCase("false")));
    }

    /** {@code aliases} maps accepted spellings (lower-case) to canonical names. */
    String choice(String key, List<String> allowed, Map<String, String> aliases) {
        Object v = raw(key);
        String s = v == null ? "" : Coercion.pyStr(v).strip().toLowerCase(Locale.ROOT);
        if (v instanceof String && allowed.contains(s)) return s;
        if (v instanceof String && aliases.containsKey(s)) return aliases.get(s);
        String c = v instanceof String && !s.isEmpty() ? Suggest.closest(s, allowed) : null;
        return bad(key, v, "one of " + String.join(", ", allowed.stream().map(a -> a.isEmpty() ? "\"\"" : a).toList()),
                allowed.get(0), c);
    }

    /** A role backend, canonicalised (blank → openai_chat). */
    String role(String key, java.util.Set<String> allowed) {
        Object v = raw(key);
        if (v != null && !(v instanceof String)) return bad(key, v, "a backend name", BackendNames.OPENAI_CHAT);
        String s = v == null || ((String) v).isBlank() ? BackendNames.OPENAI_CHAT : BackendNames.normalize((String) v);
        if (allowed.contains(s)) return s;
        return bad(key, v, "one of " + String.join(", ", allowed.stream().sorted().toList()), BackendNames.OPENAI_CHAT,
                Suggest.closest(s, allowed));
    }

    /** From a YAML list or a comma-separated string; absent/null → empty. */
    List<String> words(String key) {
        Object v = raw(key);
        if (v == null) return List.of();
        if (v instanceof List<?> l) return l.stream().map(o -> Coercion.pyStr(o).strip()).toList();
        if (v instanceof String s) return Arrays.stream(s.split(",")).filter(p -> !p.isBlank()).map(String::strip).toList();
        return bad(key, v, "a list of words or a comma-separated string", List.of());
    }
}
