package io.skillopt4j.train;

import io.skillopt4j.env.Benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread-safe. The optimizer's system prompts: {@code prompts/<name>.md} resources, overridden per benchmark
 * through {@link Benchmark#prompt(String)} where upstream allows an env override (analysts, rewrite).
 */
public final class Prompts {
    private static final Map<String, String> CACHE = new ConcurrentHashMap<>();
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
        return CACHE.computeIfAbsent(name, n -> {
            try (InputStream in = Prompts.class.getResourceAsStream("/prompts/" + n + ".md")) {
                if (in == null) throw new IllegalStateException("missing prompt resource prompts/" + n + ".md");
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read prompt " + n, e);
            }
        });
    }
}
