package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.sim.Faults;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimBehaviour;
import io.skillopt4j.sim.SimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;

/** {@code skillopt sim serve}: runs the offline simulator as a standalone OpenAI-compatible server. */
@Command(name = "sim", description = "The offline simulator (a deterministic stand-in for an LLM).",
        subcommands = SimCommand.Serve.class, mixinStandardHelpOptions = true)
final class SimCommand extends GroupCommand {
    /** Not thread-safe (picocli fills it). The faults {@code sim serve} injects: rates one by one or all at once. */
    static final class FaultOptions {
        @Option(names = "--fault-429", defaultValue = "0", description = "Rate of 429 replies with Retry-After.") double f429;
        @Option(names = "--fault-500", defaultValue = "0", description = "Rate of 500 replies.") double f500;
        @Option(names = "--fault-timeout", defaultValue = "0", description = "Rate of held connections (past the client's timeout).") double fTimeout;
        @Option(names = "--fault-malformed", defaultValue = "0", description = "Rate of 200 replies whose body is not JSON.") double fMalformed;
        @Option(names = "--fault-truncated", defaultValue = "0", description = "Rate of bodies cut off mid-stream.") double fTruncated;
        @Option(names = "--fault-disconnect", defaultValue = "0", description = "Rate of connections closed after the request, without a response.") double fDisconnect;
        @Option(names = "--fault-close", defaultValue = "0", description = "Rate of replies after which the connection is closed unannounced (HTTP/1.0 style; the client's pooled connection goes stale).") double fClose;
        @Option(names = "--faults", description = "All fault rates at once, e.g. 429=0.1,500=0.1,malformed=0.05,truncated=0.05 (names: " + Faults.NAMES + "); replaces the --fault-* options.") String faultSpec;
        @Option(names = "--retry-after", defaultValue = "1", description = "Retry-After seconds on 429. Default ${DEFAULT-VALUE}.") int retryAfter;
        @Option(names = "--timeout-hold-ms", defaultValue = "30000", description = "How long a timeout fault holds the connection. Default ${DEFAULT-VALUE}.") long holdMs;

        io.skillopt4j.config.Checks check(io.skillopt4j.config.Checks checks) {
            return checks.range("--fault-429", f429, 0, 1).range("--fault-500", f500, 0, 1).range("--fault-timeout", fTimeout, 0, 1)
                    .range("--fault-malformed", fMalformed, 0, 1).range("--fault-truncated", fTruncated, 0, 1)
                    .atLeast("--retry-after", retryAfter, 0).atLeast("--timeout-hold-ms", holdMs, 0);
        }

        /** The faults: {@code --faults} when given (its retry_after, else {@code --retry-after}), else the single rates. */
        Faults faults() {
            if (faultSpec == null)
                return new Faults(f429, f500, fTimeout, fMalformed, fTruncated, fDisconnect, fClose, retryAfter, Duration.ofMillis(holdMs));
            Faults f = Faults.parse(faultSpec);
            if (!faultSpec.contains("retry_after")) f = f.withRetryAfter(retryAfter);
            return f.withTimeouts(f.rateTimeout(), Duration.ofMillis(holdMs));
        }
    }

    /** Not thread-safe (picocli fills it). The two {@link SimBehaviour} rates a user tunes; the rest default. */
    static final class BehaviourOptions {
        @Option(names = "--slip-rate", defaultValue = "0.04", description = "Target's rate of ignoring a rule it has. Default ${DEFAULT-VALUE}.") double slip;
        @Option(names = "--harm-rate", defaultValue = "0.30", description = "Analysts' rate of proposing a harmful rule. Default ${DEFAULT-VALUE}.") double harm;

        io.skillopt4j.config.Checks check(io.skillopt4j.config.Checks checks) {
            return checks.range("--slip-rate", slip, 0, 1).range("--harm-rate", harm, 0, 1);
        }

        SimBehaviour behaviour() {
            SimBehaviour d = SimBehaviour.defaults();
            return new SimBehaviour(slip, d.vagueRate(), harm, d.redundantRate(), d.reinforceRate());
        }
    }

    /** Serves until interrupted (Ctrl-C). */
    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Serve POST /v1/chat/completions and GET /v1/models on 127.0.0.1.")
    static final class Serve extends CliCommand {
        @Mixin FaultOptions faults;
        @Mixin BehaviourOptions behaviour;
        @Mixin ServeOptions serve;
        @Option(names = "--port", defaultValue = "8089", description = "Port on 127.0.0.1 (0 = any free port). Default ${DEFAULT-VALUE}.") int port;
        @Option(names = "--seed", defaultValue = "" + SimServer.DEFAULT_SEED, description = "Seed of every simulated choice. Default ${DEFAULT-VALUE}.") long seed;
        @Option(names = "--latency-ms", defaultValue = "0", description = "Delay per call: N, A-B (uniform) or lognormal:MEDIAN:SIGMA. Default ${DEFAULT-VALUE}.") String latency;
        @Option(names = "--noise", defaultValue = "0", description = "Probability that the target's answer is flipped, drawn from (seed, request, how often it was seen), "
                + "so a re-evaluation differs, as the shared fake LLM's --noise. Default ${DEFAULT-VALUE}.") double noise;
        @Option(names = "--noise-seed", defaultValue = "0", description = "Seed of the --noise draws. Default ${DEFAULT-VALUE}.") long noiseSeed;
        @Option(names = "--threads", defaultValue = "" + SimServer.DEFAULT_THREADS, description = "Request threads. Default ${DEFAULT-VALUE}.") int threads;
        @Option(names = "--model-name", defaultValue = SimServer.DEFAULT_MODEL_NAME, description = "Model id in /v1/models. Default ${DEFAULT-VALUE}.") String modelName;

        @Override public Integer call() throws InterruptedException {
            behaviour.check(faults.check(new io.skillopt4j.config.Checks().range("--port", port, 0, 65535)).atLeast("--threads", threads, 1)
                    .range("--noise", noise, 0, 1)).throwIfAny();
            SimServer.Builder b = SimServer.builder();
            try {
                b.seed(seed).port(port).threads(threads).modelName(modelName).latency(Latency.parse(latency))
                        .behaviour(behaviour.behaviour()).faults(faults.faults()).noise(noise, noiseSeed);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("sim serve: " + e.getMessage());
            }
            try (SimServer sim = b.start()) {
                PrintWriter out = spec.commandLine().getOut();
                out.println("skillopt sim: OpenAI-compatible server at " + sim.url() + " (seed " + seed + ", latency "
                        + sim.latency() + (sim.faults().any() ? ", faults " + sim.faults() : "") + (noise > 0 ? ", noise " + noise + " seed " + noiseSeed : "") + ")");
                out.println("  export OPENAI_COMPATIBLE_BASE_URL=" + sim.url() + "   # then --backend openai_compatible");
                out.flush();
                serve.await();
                out.println("skillopt sim: served " + sim.requests() + " request(s) " + sim.requestsByStage());
                out.flush();
            } catch (java.io.UncheckedIOException e) {
                throw new ConfigException("sim serve: " + e.getMessage());
            }
            return 0;
        }
    }
}
