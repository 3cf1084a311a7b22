package io.skillopt4j.train;

import io.skillopt4j.env.Benchmark;

import java.util.Optional;

/**
 * Thread-safe. The optimizer's system prompts: {@code prompts/<name>.md} resources, overridden per benchmark
 * through {@link Benchmark#prompt(String)} where upstream allows an env override (analysts, rewrite).
 */
public final class Prompts {
    private final Benchmark benchmark;

    public Prompts(Benchmark benchmark) { this.benchmark = benchmark; }

    /** Returns the benchmark's override of {@code name} if any, else the generic prompt. */
    public String withOverride(String name) {
        if (benchmark != null) {
            Optional<String> o = benchmark.prompt(name);
            if (o.isPresent() && !o.get().isBlank()) return o.get();
        }
        return generic(name);
    }

    /** Returns the generic prompt {@code prompts/<name>.md}; a missing file is a packaging bug. */
    public static String generic(String name) {
        return io.skillopt4j.internal.Resources.text("/prompts/" + name + ".md");
    }
}
