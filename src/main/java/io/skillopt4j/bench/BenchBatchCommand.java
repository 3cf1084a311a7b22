package io.skillopt4j.bench;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.Evaluator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Not thread-safe (picocli command object). {@code skillopt bench batch}: the demo's test evaluation through direct
 * calls and through a Batch API on fresh simulators, with the dollars and wall time of each. A real provider's batch
 * takes minutes to hours, so the wall time says what this machine did, not what a provider will.
 */
@Command(name = "batch", mixinStandardHelpOptions = true,
        description = "The same evaluation through direct calls and through the Batch API (simulator): dollars and wall time.")
final class BenchBatchCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Option(names = "--provider", defaultValue = "openai", description = "openai (Files + Batches API) or anthropic (Message Batches) (default: ${DEFAULT-VALUE}).")
    String provider;
    @Option(names = "--items", defaultValue = "0", description = "Test items (0 = the whole split, 120) (default: ${DEFAULT-VALUE}).")
    int items;
    @Option(names = "--sim-latency-ms", defaultValue = "150-250", description = "Simulated latency of a direct call (default: ${DEFAULT-VALUE}).")
    String latency;
    @Option(names = "--batch-delay-ms", defaultValue = "1000", description = "Simulated time a batch takes to complete (default: ${DEFAULT-VALUE}).")
    long batchDelayMs;
    @Option(names = "--poll-ms", defaultValue = "200", description = "Batch status poll interval (default: ${DEFAULT-VALUE}).")
    long pollMs;
    @Option(names = "--out", defaultValue = "target/bench-batch", description = "Scratch folder (default: ${DEFAULT-VALUE}).")
    Path out;

    /** Immutable. One measured evaluation. */
    record Row(String mode, int items, long calls, long batched, double usd, double wallSeconds, double hard) {}

    @Override public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        if (!provider.equals("openai") && !provider.equals("anthropic")) throw ConfigException.badValue("", "--provider", provider, "openai or anthropic");
        Latency lat;
        try { lat = Latency.parse(latency); } catch (IllegalArgumentException e) { throw new ConfigException("--sim-latency-ms: " + e.getMessage()); }
        Row direct = measure("direct", false, lat);
        Row batch = measure("batch_api", true, lat);
        o.printf(Locale.ROOT, "skillopt bench batch: demo test evaluation, %s wire format, simulator latency %s ms per direct call, batch completes after %d ms%n",
                provider, latency, batchDelayMs);
        o.printf(Locale.ROOT, "%-10s %6s %6s %8s %10s %8s %6s%n", "mode", "items", "calls", "batched", "usd", "wall_s", "hard");
        for (Row r : new Row[] {direct, batch})
            o.printf(Locale.ROOT, "%-10s %6d %6d %8d %10.5f %8.2f %6.3f%n", r.mode(), r.items(), r.calls(), r.batched(), r.usd(), r.wallSeconds(), r.hard());
        o.printf(Locale.ROOT, "batch / direct: dollars x%.2f, wall time x%.2f; same scores: %s%n", batch.usd() / direct.usd(),
                batch.wallSeconds() / direct.wallSeconds(), direct.hard() == batch.hard() ? "yes" : "NO");
        o.flush();
        return direct.hard() == batch.hard() ? 0 : 1;
    }

    private Row measure(String mode, boolean batchApi, Latency lat) {
        Path dir = out.resolve(provider + "-" + mode).toAbsolutePath();
        AtomicFiles.deleteTree(dir);
        Path config = RepoFiles.demoConfig();
        try (SimServer sim = SimServer.builder().seed(7).latency(lat).batchDelay(Duration.ofMillis(batchDelayMs)).start()) {
            SkillOpt s = SkillOpt.config(config).simulator(sim).outRoot(dir).set("evaluation.test_env_num", items)
                    .set("model.response_cache", "off").set("evaluation.batch_api", batchApi).set("evaluation.batch_poll_seconds", pollMs / 1000.0);
            if (provider.equals("anthropic")) {
                String origin = sim.url().substring(0, sim.url().length() - "/v1".length());
                Map<String, String> env = new java.util.HashMap<>(sim.environment());
                env.putAll(Map.of("ANTHROPIC_API_KEY", "sk-ant-sim", "ANTHROPIC_BASE_URL", origin));
                s = s.environment(env).flag("target_backend", "claude_chat").set("model.claude_chat_transport", "api");
            }
            Evaluator ev = s.evaluator(config.getParent().resolve("initial_skill.md"), "valid_unseen");
            long t0 = System.nanoTime();
            Map<String, Object> summary = ev.run();
            double wall = (System.nanoTime() - t0) / 1e9;
            CostLedger l = ev.ledger();
            long batched = l.entries().stream().filter(CostLedger.Entry::batch).count();
            return new Row(mode, ((Number) summary.get("n_items")).intValue(), l.entries().size(), batched, l.spent(), wall,
                    ((Number) summary.get("hard")).doubleValue());
        }
    }
}
