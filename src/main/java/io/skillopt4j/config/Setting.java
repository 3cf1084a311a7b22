package io.skillopt4j.config;

import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Immutable. A typed accessor for one row of the flag table: code outside {@code config/} reads config values through
 * these (or {@link RunConfig}), never by string key with a default of its own, so every key has one default, the
 * table's. Values convert as {@link FlatConfig}'s accessors do; a key the table does not have fails at once.
 */
public final class Setting<T> {
    private final FlagSpec row;
    private final BiFunction<FlatConfig, String, T> read;

    private Setting(String key, BiFunction<FlatConfig, String, T> read) {
        this.row = Flags.byKey(key).orElseThrow(() -> new IllegalArgumentException("no flag-table row for config key " + key
                + ": add one to config.Flags (with its default) before reading it"));
        this.read = read;
    }

    public static Setting<Integer> integer(String key) { return new Setting<>(key, (c, k) -> c.integer(k, 0)); }

    public static Setting<Long> longValue(String key) { return new Setting<>(key, (c, k) -> c.longValue(k, 0)); }

    public static Setting<Double> decimal(String key) { return new Setting<>(key, (c, k) -> c.decimal(k, 0)); }

    /** Python truthiness. */
    public static Setting<Boolean> bool(String key) { return new Setting<>(key, (c, k) -> c.bool(k, false)); }

    /** Numbers and booleans printed as Python does. */
    public static Setting<String> string(String key) { return new Setting<>(key, (c, k) -> c.string(k, "")); }

    /** A value used as given: a list or map (an inline price table) or a raw scalar. */
    public static Setting<Object> value(String key) { return new Setting<>(key, FlatConfig::get); }

    public String key() { return row.key(); }

    /** The value when the config sets it (blank numbers count as unset). */
    public Optional<T> in(FlatConfig cfg) {
        Object v = cfg.get(row.key());
        if (v == null || (row.type() != FlagSpec.FlagType.STR && v instanceof String s && s.isBlank())) return Optional.empty();
        return Optional.of(read.apply(cfg, row.key()));
    }

    /** The value, or the table's default. */
    public T of(FlatConfig cfg) {
        if (row.env() != null && !row.env().names().isEmpty())
            throw new IllegalStateException("config key " + row.key() + " is also read from the environment: read it through ModelSettings");
        Optional<T> v = in(cfg);
        if (v.isPresent()) return v.get();
        Object d = TypedReader.defaultOf(row.key());
        if (d == null) throw new IllegalStateException("config key " + row.key() + " has no table default: read it with in(cfg)");
        return read.apply(FlatConfig.of(java.util.Map.of(row.key(), d)), row.key());
    }

    /** True when the config names the key at all, even with a null value. */
    public boolean setIn(FlatConfig cfg) { return cfg.has(row.key()); }

    /** For a CLI option that sets the same thing outside a config. */
    public T defaultValue() { return of(FlatConfig.empty()); }

    @Override public String toString() { return "Setting " + row.path() + " (" + row.key() + ")"; }
}
