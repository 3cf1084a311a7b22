package io.skillopt4j.backend.internal;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Redactor;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Immutable. Reads one role's backend settings with upstream's precedence: config value, then environment,
 * then default (blank values count as unset). Secrets use {@link #secret} instead: environment first,
 * then config, and every secret read is remembered by {@link Redactor}.
 */
public record Settings(FlatConfig cfg, Map<String, String> env, String role) {
    public Settings {
        cfg = cfg == null ? FlatConfig.empty() : cfg;
        env = env == null ? Map.of() : env;
        role = role == null ? "target" : role.toLowerCase(Locale.ROOT);
    }

    /** Returns the role prefix for config keys ({@code optimizer_}/{@code target_}). */
    public String cfgPrefix() { return role + "_"; }

    /** Returns the role prefix for env vars ({@code OPTIMIZER_}/{@code TARGET_}). */
    public String envPrefix() { return role.toUpperCase(Locale.ROOT) + "_"; }

    /** Returns the first non-blank config value among {@code keys}, or null. */
    public String cfgValue(String... keys) {
        for (String k : keys) {
            Object v = cfg.get(k);
            if (v != null && !String.valueOf(v).isBlank()) return cfg.string(k, "").trim();
        }
        return null;
    }

    /** Returns the first non-blank env value among {@code names}, or null. */
    public String envValue(String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) return v.trim();
        }
        return null;
    }

    /** Config keys first, then env names, then {@code def}. */
    public String str(String[] cfgKeys, String[] envNames, String def) {
        String v = cfgValue(cfgKeys);
        if (v == null) v = envValue(envNames);
        return v == null ? def : v;
    }

    /** A secret: env names first, then config keys; remembered for redaction; "" when absent. */
    public String secret(String[] envNames, String[] cfgKeys) {
        String v = envValue(envNames);
        if (v == null) v = cfgValue(cfgKeys);
        Redactor.remember(v);
        return v == null ? "" : v;
    }

    /** Like {@link #str} but parsed as an int; a bad value names the key. */
    public int integer(String[] cfgKeys, String[] envNames, int def) {
        String v = str(cfgKeys, envNames, null);
        if (v == null) return def;
        try {
            return (int) Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw ConfigException.badValue("", cfgKeys.length > 0 ? cfgKeys[0] : envNames[0], v, "an integer");
        }
    }

    /** Like {@link #str} but as seconds. */
    public Duration seconds(String[] cfgKeys, String[] envNames, double def) {
        String v = str(cfgKeys, envNames, null);
        double s = def;
        if (v != null) {
            try {
                s = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw ConfigException.badValue("", cfgKeys.length > 0 ? cfgKeys[0] : envNames[0], v, "a number of seconds");
            }
        }
        if (s <= 0) throw ConfigException.badValue("", cfgKeys.length > 0 ? cfgKeys[0] : envNames[0], v, "a positive number of seconds");
        return Duration.ofMillis((long) (s * 1000));
    }

    /** Parses a boolean the way upstream's exec settings do; anything else throws naming {@code key}. */
    public static boolean parseBool(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off", "" -> false;
            default -> throw ConfigException.badValue("", key, v, "a boolean (true/false, yes/no, on/off, 1/0)");
        };
    }

    /** Config/env boolean with default. */
    public boolean bool(String[] cfgKeys, String[] envNames, boolean def) {
        String v = str(cfgKeys, envNames, null);
        return v == null ? def : parseBool(cfgKeys.length > 0 ? cfgKeys[0] : envNames[0], v);
    }
}
