package io.skillopt4j.env;

/** A named maker of benchmarks, service-loaded or {@link Benchmarks#register registered} at run time. */
public interface BenchmarkFactory {
    /** The env name of configs ({@code env.name}) and {@code --env}. */
    String name();

    default String description() { return ""; }

    /** Builds the benchmark; bad data or a missing runtime throws a {@link io.skillopt4j.ConfigException}. */
    Benchmark create(BenchmarkContext context);

    /** Thread-safe. A factory that is only a name, a description and a constructor: a built-in's service entry. */
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
