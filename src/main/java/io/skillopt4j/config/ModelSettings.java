package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.Redactor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Immutable. One role's backend settings by {@link ModelKey}, with upstream's precedence: the config (role form, key,
 * aliases), then the row's environment names, then its default; blank counts as unset. A secret reads the environment
 * first and is remembered by {@link Redactor}. A bad value throws a {@link ConfigException} naming the first config key.
 */
public record ModelSettings(FlatConfig cfg, Map<String, String> env, String role) {
    public ModelSettings {
        cfg = cfg == null ? FlatConfig.empty() : cfg;
        env = env == null ? Map.of() : env;
        role = role == null ? "target" : role.toLowerCase(Locale.ROOT);
    }

    /** {@code optimizer_}/{@code target_}. */
    public String cfgPrefix() { return role + "_"; }

    /** {@code OPTIMIZER_}/{@code TARGET_}. */
    public String envPrefix() { return role.toUpperCase(Locale.ROOT) + "_"; }

    /** For a key each role has its own row of. */
    public ModelKey pick(ModelKey forOptimizer, ModelKey forTarget) { return role.equals("optimizer") ? forOptimizer : forTarget; }

    public List<String> cfgKeys(ModelKey k) {
        List<String> keys = new ArrayList<>();
        if (k.perRole()) keys.add(cfgPrefix() + k.key());
        keys.add(k.key());
        keys.addAll(k.env().aliases());
        return keys;
    }

    public List<String> envNames(ModelKey k) {
        String r = role.toUpperCase(Locale.ROOT);
        return k.env().names().stream().map(n -> n.replace("{ROLE}", r)).toList();
    }

    /** Returns the first non-blank config value of {@code k} (trimmed). */
    public Optional<String> configured(ModelKey k) {
        return cfgKeys(k).stream().filter(key -> cfg.get(key) != null && !String.valueOf(cfg.get(key)).isBlank())
                .findFirst().map(key -> cfg.string(key, "").trim());
    }

    /** Returns the first non-blank environment value of {@code k} (trimmed). */
    public Optional<String> fromEnv(ModelKey k) {
        return envNames(k).stream().map(env::get).filter(v -> v != null && !v.isBlank()).findFirst().map(String::trim);
    }

    /** Returns the first environment variable of {@code k} that is set at all, as given (blank too). */
    public Optional<String> envPresent(ModelKey k) {
        return envNames(k).stream().filter(env::containsKey).findFirst().map(env::get);
    }

    /** Returns the first value given at all, blank included: a non-null config value, else a set environment variable. */
    public Optional<String> present(ModelKey k) {
        return cfgKeys(k).stream().filter(key -> cfg.get(key) != null).findFirst().map(key -> cfg.string(key, ""))
                .or(() -> envPresent(k));
    }

    /** Config, then environment, then the row's default (null when it has none). */
    public String string(ModelKey k) {
        return configured(k).or(() -> fromEnv(k)).orElseGet(k::text);
    }

    /** {@link #string} as an int. */
    public int integer(ModelKey k) {
        Optional<String> v = configured(k).or(() -> fromEnv(k));
        if (v.isEmpty()) return ((Number) required(k)).intValue();
        try {
            return (int) Double.parseDouble(v.get());
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", firstKey(k), v.get(), "an integer");
        }
    }

    /** {@link #string} as a positive number of seconds. */
    public Duration seconds(ModelKey k) {
        Optional<String> v = configured(k).or(() -> fromEnv(k));
        double s;
        try {
            s = v.isEmpty() ? ((Number) required(k)).doubleValue() : Double.parseDouble(v.get());
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", firstKey(k), v.get(), "a number of seconds");
        }
        if (s <= 0) throw ConfigException.badValue("", firstKey(k), v.orElse(null), "a positive number of seconds");
        return Duration.ofMillis((long) (s * 1000));
    }

    /** {@link #string} as a boolean (true/false, yes/no, on/off, 1/0). */
    public boolean bool(ModelKey k) {
        Optional<String> v = configured(k).or(() -> fromEnv(k));
        if (v.isPresent()) return parseBool(firstKey(k), v.get());
        Object d = required(k);
        return d instanceof Boolean b ? b : parseBool(firstKey(k), Coercion.pyStr(d));
    }

    /** A secret: environment first, then config; remembered for redaction; "" when absent. */
    public String secret(ModelKey k) {
        String v = fromEnv(k).or(() -> configured(k)).orElse(null);
        Redactor.remember(v);
        return v == null ? "" : v;
    }

    /**
     * The role's model for a canonical role backend: {@code <role>_model} (Claude backends replace a GPT placeholder),
     * else the backend's {@link BackendNames#MODEL_ENV} variable ({@code <ROLE>_} form first), else its default model.
     */
    public String model(String backend) {
        String m = configured(pick(ModelKey.OPTIMIZER_MODEL, ModelKey.TARGET_MODEL)).orElse(null);
        boolean claude = backend.equals(BackendNames.CLAUDE_CODE_EXEC) || backend.equals(BackendNames.CLAUDE_CHAT);
        if (claude && (m == null || BackendNames.isSentinel(m))) return BackendNames.defaultModel(backend);
        if (m != null) return m;
        String name = BackendNames.MODEL_ENV.get(backend);
        List<String> names = name == null ? List.of() : List.of(envPrefix() + name, name);
        return names.stream().map(env::get).filter(v -> v != null && !v.isBlank()).findFirst().map(String::trim)
                .orElseGet(() -> BackendNames.defaultModel(backend));
    }

    /** The key a bad value is reported under. */
    public String firstKey(ModelKey k) { return cfgKeys(k).get(0); }

    /** Parses a boolean the way upstream's exec settings do; anything else throws naming {@code key}. */
    public static boolean parseBool(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off", "" -> false;
            default -> throw ConfigException.badValue("", key, v, "a boolean (true/false, yes/no, on/off, 1/0)");
        };
    }

    private static Object required(ModelKey k) {
        Object d = k.env().fallback();
        if (d == null) throw new IllegalStateException(k.key() + " has no default in the flag table");
        return d;
    }
}
