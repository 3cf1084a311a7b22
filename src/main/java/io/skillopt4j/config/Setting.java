package io.skillopt4j.config;

import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Immutable. A typed accessor for one row of the flag table: code outside {@code config/} reads config values through
 * these (or through {@link RunConfig}), never by string key with a default of its own, so every key has one default —
 * the table's. A benchmark declares the knobs it reads as constants:
 * <pre>{@code
 * static final Setting<Integer> MAX_TURNS = Setting.integer("max_turns");
 * int turns = MAX_TURNS.of(ctx.config());              // the value, or the table's default
 * int workers = Setting.integer("workers").in(cfg).orElse(defaultWorkers()); // no table default: the benchmark's own
 * }</pre>
 * Values convert as {@link FlatConfig}'s accessors do (Python truthiness, numeric strings); a bad value throws a
 * {@link ConfigException} naming the key. Creating a setting for a key the table does not have fails at once.
 *
 * @param <T> the value type
 */
public final class Setting<T> {
    private final FlagSpec row;
    private final BiFunction<FlatConfig, String, T> read;

    private Setting(String key, BiFunction<FlatConfig, String, T> read) {
        this.row = Flags.byKey(key).orElseThrow(() -> new IllegalArgumentException("no flag-table row for config key " + key
                + ": add one to config.Flags (with its default) before reading it"));
        this.read = read;
    }

    /** An integer key. */
    public static Setting<Integer> integer(String key) {
        return new Setting<>(key, (c, k) -> c.integer(k, 0));
    }

    /** A long integer key. */
    public static Setting<Long> longValue(String key) {
        return new Setting<>(key, (c, k) -> c.longValue(k, 0));
    }

    /** A number key. */
    public static Setting<Double> decimal(String key) {
        return new Setting<>(key, (c, k) -> c.decimal(k, 0));
    }

    /** A boolean key (Python truthiness). */
    public static Setting<Boolean> bool(String key) {
        return new Setting<>(key, (c, k) -> c.bool(k, false));
    }

    /** A string key (numbers and booleans printed as Python does). */
    public static Setting<String> string(String key) {
        return new Setting<>(key, (c, k) -> c.string(k, ""));
    }

    /** A key whose value is used as given: a list or map (an inline price table, document folders) or a raw scalar. */
    public static Setting<Object> value(String key) {
        return new Setting<>(key, FlatConfig::get);
    }

    /** Returns the flat key. */
    public String key() { return row.key(); }

    /** Returns the value when the config sets it (blank numbers count as unset), else empty. */
    public Optional<T> in(FlatConfig cfg) {
        Object v = cfg.get(row.key());
        if (v == null || (row.type() != FlagSpec.FlagType.STR && v instanceof String s && s.isBlank())) return Optional.empty();
        return Optional.of(read.apply(cfg, row.key()));
    }

    /** Returns the value, or the table's default when the config does not set it. */
    public T of(FlatConfig cfg) {
        if (row.env() != null && !row.env().names().isEmpty())
            throw new IllegalStateException("config key " + row.key() + " is also read from the environment: read it through ModelSettings");
        Optional<T> v = in(cfg);
        if (v.isPresent()) return v.get();
        Object d = TypedReader.defaultOf(row.key());
        if (d == null) throw new IllegalStateException("config key " + row.key() + " has no table default: read it with in(cfg)");
        return read.apply(FlatConfig.of(java.util.Map.of(row.key(), d)), row.key());
    }

    /** Returns true when the config names the key at all (even with a null value): "set" rather than "defaulted". */
    public boolean setIn(FlatConfig cfg) { return cfg.has(row.key()); }

    /** Returns the table's default (for a CLI option that sets the same thing outside a config). */
    public T defaultValue() { return of(FlatConfig.empty()); }

    @Override public String toString() { return "Setting " + row.path() + " (" + row.key() + ")"; }
}
