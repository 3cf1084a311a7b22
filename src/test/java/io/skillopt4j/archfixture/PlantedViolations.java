package io.skillopt4j.archfixture;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.train.Trainer;

/** What ArchitectureTest must catch, compiled so that its rules are shown to fire on real bytecode. Never called. */
final class PlantedViolations {
    private PlantedViolations() {}

    /** A string-key read with an inline default, and raw reads by key. */
    static int stringKeyReads(FlatConfig cfg) {
        return cfg.integer("workers", 8) + (cfg.has("seed") ? 1 : 0) + String.valueOf(cfg.get("env")).length();
    }

    /** A second Trainer assembly. */
    static Object secondTrainerAssembly() { return Trainer.builder(); }

    /** Models and a benchmark built outside the one factory. */
    static Object secondModelAssembly(FlatConfig cfg) { return Benchmarks.create("house-rules", null) == null ? Backends.roles(cfg) : null; }

    /** The allowed form: a typed accessor keyed by a flag-table row. */
    static final class Clean {
        private Clean() {}

        static int workers(FlatConfig cfg) { return Setting.integer("seed").of(cfg); }
    }
}
