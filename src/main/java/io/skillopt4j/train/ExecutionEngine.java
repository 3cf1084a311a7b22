package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.RemoteItems;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Thread-safe. Where a run's calls execute; engines but local load through {@link ServiceLoader} when named. */
public interface ExecutionEngine extends AutoCloseable {
    /** Immutable. The run an engine serves; {@code ledger} null: calls made elsewhere are not priced. */
    record RunContext(FlatConfig config, Path outRoot, UsageMeter usage, io.skillopt4j.backend.CostLedger ledger) {
        /** A run without a ledger (benchmarks of the engine itself). */
        public RunContext(FlatConfig config, Path outRoot, UsageMeter usage) { this(config, outRoot, usage, null); }
    }

    /** Thread-safe. Opens the engine of one run; registered in {@code META-INF/services} under its {@link #name()}. */
    interface Factory {
        String name();

        /** Opens the engine for a run (connects, starts what the run needs); a bad setting throws {@link ConfigException}. */
        ExecutionEngine open(RunContext run);
    }

    String name();

    /** Returns the optimizer model the stages call: the given one (local) or one that runs each call elsewhere. */
    ChatModel optimizer(ChatModel model);

    /** Returns how rollout items run elsewhere, or null to run them in this JVM's rollout threads. */
    RemoteItems rolloutItems();

    /** Ends the run's use of the engine (stops what {@link Factory#open} started); never throws. */
    @Override void close();

    /** The local engine's factory: everything in this JVM. */
    static Factory local() { return LocalEngine.FACTORY; }

    /** The factory for {@code engine.name}; an unknown name throws a {@link ConfigException} naming the known ones. */
    static Factory named(String name) {
        String n = name == null || name.isBlank() ? "local" : name.trim();
        if (n.equals("local")) return local();
        List<String> known = new ArrayList<>(List.of("local"));
        for (Factory f : ServiceLoader.load(Factory.class, ExecutionEngine.class.getClassLoader())) {
            if (f.name().equals(n)) return f;
            known.add(f.name());
        }
        throw ConfigException.badValue("", "engine.name", n, "one of " + String.join(", ", known));
    }
}
