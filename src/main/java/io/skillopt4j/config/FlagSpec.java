package io.skillopt4j.config;

import java.util.List;

/**
 * Immutable. One row of the key table ({@link Flags}).
 *
 * @param key          flat key the trainer reads ({@code edit_budget})
 * @param flag         CLI flag name without dashes, or null when no flag exists
 * @param path         structured dotted path ({@code optimizer.learning_rate})
 * @param inBase       whether configs/_base_/default.yaml sets it
 * @param defaultValue the base default (when {@code inBase}) or the consumer default used when absent
 * @param train        flag exists on {@code train} ({@code scripts/train.py}); {@code eval}: on {@code eval_only.py}
 * @param mapped       part of the flatten map (else an {@code env.*} pass-through or retired key)
 * @param retired      accepted and ignored with a warning (hidden from help)
 * @param env          how a backend reads the key besides the config, or null for a key only the config sets
 */
public record FlagSpec(String key, String flag, String path, FlagType type, boolean inBase, Object defaultValue,
                       String help, List<String> choices, boolean train, boolean eval, boolean mapped,
                       boolean ours, boolean retired, Env env) {
    /** Value types of the table; {@code BOOL} flags parse like upstream's {@code _BOOL} (true/1/yes). */
    public enum FlagType { STR, INT, FLOAT, BOOL, ANY }

    /**
     * Immutable. The environment side of a backend key, read by {@link ModelSettings}: after the config, the first
     * non-blank of {@code names} ({@code {ROLE}}: OPTIMIZER or TARGET), then {@code fallback} (null: unset).
     */
    public record Env(List<String> names, List<String> aliases, Object fallback, boolean secret) {
        public Env {
            names = List.copyOf(names);
            aliases = List.copyOf(aliases);
        }
    }

    public FlagSpec {
        choices = List.copyOf(choices);
    }

    public String section() { return path.substring(0, path.indexOf('.')); }

    public String leaf() { return path.substring(path.indexOf('.') + 1); }

    public boolean renamed() { return !key.equals(leaf()); }

    FlagSpec withChoices(String... c) {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, List.of(c), train, eval, mapped, ours, retired, env);
    }

    FlagSpec evalToo() {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, choices, train, true, mapped, ours, retired, env);
    }

    FlagSpec noFlag() {
        return new FlagSpec(key, null, path, type, inBase, defaultValue, help, choices, false, false, mapped, ours, retired, env);
    }

    FlagSpec consumerDefault(Object d) {
        return new FlagSpec(key, flag, path, type, false, d, help, choices, train, eval, mapped, ours, retired, env);
    }

    /** Read also from the environment {@code names}, then {@code fallback} (a row not in the base YAML: its default). */
    FlagSpec env(Object fallback, String... names) {
        return new FlagSpec(key, flag, path, type, inBase, inBase ? defaultValue : fallback, help, choices, train, eval, mapped, ours, retired,
                new Env(List.of(names), env == null ? List.of() : env.aliases(), fallback, false));
    }

    /** A secret read from the environment {@code names} first, then the config (no fallback). */
    FlagSpec secretEnv(String... names) {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, choices, train, eval, mapped, ours, retired,
                new Env(List.of(names), List.of(), null, true));
    }

    /** Config keys upstream also reads for this one (after it), as {@code codex_bin} for {@code codex_exec_path}. */
    FlagSpec aliases(String... keys) {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, choices, train, eval, mapped, ours, retired,
                new Env(env.names(), List.of(keys), env.fallback(), env.secret()));
    }

    FlagSpec asOurs() {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, choices, train, eval, mapped, true, retired, env);
    }
}
