package io.skillopt4j.env;

import io.skillopt4j.ConfigException;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Thread-safe. The benchmark registry: service-loaded factories and run-time ones (a later registration wins). */
public final class Benchmarks {
    private static final Map<String, BenchmarkFactory> RUNTIME = new ConcurrentHashMap<>();

    private Benchmarks() {}

    /** Registers (or replaces) a factory under its name. */
    public static void register(BenchmarkFactory factory) {
        RUNTIME.put(factory.name(), factory);
    }

    /** Every known factory by name, sorted. */
    public static Map<String, BenchmarkFactory> all() {
        Map<String, BenchmarkFactory> out = new TreeMap<>();
        for (BenchmarkFactory f : ServiceLoader.load(BenchmarkFactory.class, Benchmarks.class.getClassLoader())) out.put(f.name(), f);
        ClassLoader ctx = Thread.currentThread().getContextClassLoader();
        if (ctx != null && ctx != Benchmarks.class.getClassLoader()) {
            for (BenchmarkFactory f : ServiceLoader.load(BenchmarkFactory.class, ctx)) out.putIfAbsent(f.name(), f);
        }
        out.putAll(RUNTIME);
        return out;
    }

    /** The factory for {@code name}; an unknown name throws listing the installed ones. */
    public static BenchmarkFactory factory(String name) {
        Map<String, BenchmarkFactory> all = all();
        BenchmarkFactory f = all.get(name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT));
        if (f == null) f = all.get(name);
        if (f == null) throw new ConfigException("unknown env \"" + name + "\"; installed: " + String.join(", ", all.keySet()));
        return f;
    }

    public static Benchmark create(String name, BenchmarkContext context) {
        return factory(name).create(context);
    }
}
