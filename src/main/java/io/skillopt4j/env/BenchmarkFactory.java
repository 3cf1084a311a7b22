package io.skillopt4j.env;

/**
 * A named maker of benchmarks, registered in {@code META-INF/services/io.skillopt4j.env.BenchmarkFactory}
 * or at run time with {@link Benchmarks#register(BenchmarkFactory)} (e.g. from a notebook cell).
 */
public interface BenchmarkFactory {
    /** Returns the env name used in configs ({@code env.name}) and {@code --env}. */
    String name();

    /** Returns a one-line description for listings. */
    default String description() { return ""; }

    /**
     * Builds the benchmark: loads and validates data (a missing or malformed file throws
     * {@link io.skillopt4j.ConfigException} naming file, item index and field) and checks outside
     * runtimes before any model call.
     */
    Benchmark create(BenchmarkContext context);
}
