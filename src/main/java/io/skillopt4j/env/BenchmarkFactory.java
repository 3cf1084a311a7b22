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

    /**
     * Thread-safe. A factory that is only a name, a description and a constructor: the service entry of a built-in
     * benchmark ({@code public static final class Factory extends BenchmarkFactory.Named}, with a public no-arg constructor).
     */
    abstract class Named implements BenchmarkFactory {
        private final String name;
        private final String description;
        private final java.util.function.Function<BenchmarkContext, Benchmark> make;

        protected Named(String name, String description, java.util.function.Function<BenchmarkContext, Benchmark> make) {
            this.name = name;
            this.description = description;
            this.make = make;
        }

        @Override public final String name() { return name; }
        @Override public final String description() { return description; }
        @Override public final Benchmark create(BenchmarkContext context) { return make.apply(context); }
    }
}
