package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;

/** Immutable. How the gates compare skills: SkillOpt's higher score or {@link io.skillopt4j.train.stats.PairedT}. */
public record GateSettings(String test, double confidence, int repeats, boolean adaptive, int maxRepeats) {
    public static final String NONE = "none", PAIRED = "paired_bootstrap";

    /** SkillOpt's comparison: one evaluation, higher score wins. */
    public static GateSettings none() { return new GateSettings(NONE, 0.95, 1, false, 1); }

    /** Reads and checks the keys; a bad value throws naming key, value and what is allowed. */
    public static GateSettings from(FlatConfig cfg) {
        String test = Setting.string("gate_test").of(cfg).strip();
        if (!test.equals(NONE) && !test.equals(PAIRED))
            throw ConfigException.badValue("", "evaluation.gate_test", test, "one of none, paired_bootstrap");
        double c = Setting.decimal("gate_confidence").of(cfg);
        if (!(c >= 0.5 && c < 1)) throw ConfigException.badValue("", "evaluation.gate_confidence", c, "a number in [0.5, 1)");
        int k = Setting.integer("eval_repeats").of(cfg);
        if (k < 1) throw ConfigException.badValue("", "evaluation.eval_repeats", k, "an integer >= 1");
        boolean adaptive = test.equals(PAIRED) && Setting.bool("adaptive_repeats").of(cfg); // only the paired test looks again
        int max = Setting.integer("max_repeats").of(cfg);
        if (adaptive && max < k) throw ConfigException.badValue("", "evaluation.max_repeats", max, "an integer >= eval_repeats (" + k + ")");
        return new GateSettings(test, c, k, adaptive, adaptive ? max : k);
    }

    public boolean paired() { return test.equals(PAIRED); }
}
