package io.skillopt4j.config;

import java.util.List;

/**
 * Immutable. One row of the declarative key table ({@link Flags}): a flat config key, its structured
 * path, its CLI flag (if any), type, default, help and allowed values. The table drives the picocli
 * options, the flatten map, the legacy-flag → structured mapping and docs/config.md.
 *
 * @param key          flat key the trainer reads ({@code edit_budget}, {@code env}, {@code model_backend})
 * @param flag         CLI flag name without dashes, or null when no flag exists
 * @param path         structured dotted path ({@code optimizer.learning_rate}, {@code env.split_dir})
 * @param type         value type
 * @param inBase       whether configs/_base_/default.yaml sets it
 * @param defaultValue the base default (when {@code inBase}) or the consumer default used when absent
 * @param help         one-line description
 * @param choices      allowed values (empty = free)
 * @param train        flag exists on {@code train} ({@code scripts/train.py})
 * @param eval         flag exists on {@code eval} ({@code scripts/eval_only.py})
 * @param mapped       part of the flatten map (else an {@code env.*} pass-through or retired key)
 * @param ours         a SkillOpt4J addition, not an upstream key
 * @param retired      accepted and ignored with a warning (hidden from help)
 */
public record FlagSpec(String key, String flag, String path, FlagType type, boolean inBase, Object defaultValue,
                       String help, List<String> choices, boolean train, boolean eval, boolean mapped,
                       boolean ours, boolean retired) {
    /** Value types of the table; {@code BOOL} flags parse like upstream's {@code _BOOL} (true/1/yes). */
    public enum FlagType { STR, INT, FLOAT, BOOL, ANY }

    public FlagSpec {
        choices = List.copyOf(choices);
    }

    /** Returns the section of {@link #path()} ({@code model}, {@code train}, ..., {@code env}). */
    public String section() { return path.substring(0, path.indexOf('.')); }

    /** Returns the leaf of {@link #path()} ({@code learning_rate}). */
    public String leaf() { return path.substring(path.indexOf('.') + 1); }

    /** Returns true when the flat key differs from the structured leaf (a renamed entry). */
    public boolean renamed() { return !key.equals(leaf()); }

    FlagSpec withChoices(String... c) {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, List.of(c), train, eval, mapped, ours, retired);
    }

    FlagSpec evalToo() {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, choices, train, true, mapped, ours, retired);
    }

    FlagSpec noFlag() {
        return new FlagSpec(key, null, path, type, inBase, defaultValue, help, choices, false, false, mapped, ours, retired);
    }

    FlagSpec consumerDefault(Object d) {
        return new FlagSpec(key, flag, path, type, false, d, help, choices, train, eval, mapped, ours, retired);
    }

    FlagSpec asOurs() {
        return new FlagSpec(key, flag, path, type, inBase, defaultValue, help, choices, train, eval, mapped, true, retired);
    }
}
