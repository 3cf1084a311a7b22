package io.skillopt4j.bench;

import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.OpenAiCompatibleChatModel;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.Trainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code skillopt bench train}: a simulated training's wall time against the critical-path bound Σ phases
 * ⌈calls/workers⌉ × latency, and the framework's cost per model call at zero latency, as a Markdown section.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Measure a simulated training run: wall time vs the critical-path bound, and overhead per call.")
final class BenchTrainCommand implements Callable<Integer> {
    static final String START = "<!-- bench-train:start -->", END = "<!-- bench-train:end -->";
    /** Unmeasured zero-latency runs first, alternately parallel and sequential: C2 needs a few thousand calls. */
    static final int WARMUPS = 6, WARMUP_CALLS = 5_000, MAX_WARMUPS = 100;

    @Spec CommandSpec spec;
    @Option(names = "--latency-ms", defaultValue = "100", description = "Fixed simulated latency per call (default: ${DEFAULT-VALUE}).") long latencyMs;
    @Option(names = "--workers", defaultValue = "8", description = "Rollout workers (default: ${DEFAULT-VALUE}).") int workers;
    @Option(names = "--analyst-workers", defaultValue = "4", description = "Analyst/merge workers (default: ${DEFAULT-VALUE}).") int analystWorkers;
    @Option(names = "--epochs", defaultValue = "2", description = "Epochs (default: ${DEFAULT-VALUE}).") int epochs;
    @Option(names = "--config", description = "Config (default: configs/demo/default.yaml).") Path config;
    @Option(names = "--write", description = "Markdown file whose bench-train section is replaced with the results.") Path write;
    @Mixin RunsDirOptions runs;
    @Option(names = "--background-eval", arity = "1", defaultValue = "true",
            description = "Background rollouts (train.background_eval; default: ${DEFAULT-VALUE}); false measures the plain sequential order.") boolean backgroundEval;
    @Option(names = "--cfg-options", arity = "1..*",
            description = "More key=value overrides for every run (another config's sizes, e.g. the shared SearchQA workload's).") List<String> extra = new ArrayList<>();

    @Override public Integer call() throws Exception {
        runs.check(new io.skillopt4j.config.Checks().atLeast("--epochs", epochs, 1).atLeast("--latency-ms", latencyMs, 0).atLeast("--workers", workers, 1)
                .atLeast("--analyst-workers", analystWorkers, 1).file("--config", config)).throwIfAny();
        PrintWriter out = spec.commandLine().getOut();
        Path cfgFile = config != null ? config : RepoFiles.demoConfig();
        // the overrides are checked once, as `train` checks them (an unknown key is an error), before any run
        if (!extra.isEmpty()) setup(base(cfgFile).cliWarnings().onWarning(w -> {}), runs.base("skillopt-bench-train")).resolve();
        Path base = runs.base("skillopt-bench-train");

        // unmeasured runs first, so the JIT has compiled the hot paths (as JMH's warm-up iterations do)
        int warmups = 0;
        for (long calls = 0; warmups < WARMUPS || calls < WARMUP_CALLS && warmups < MAX_WARMUPS; ) {
            warmups++;
            calls += run(cfgFile, base.resolve("warmup-" + warmups), 0, warmups % 2 == 0 ? 1 : workers, warmups % 2 == 0 ? 1 : analystWorkers).calls;
            AtomicFiles.deleteTreeQuietly(base.resolve("warmup-" + warmups)); // many small runs: keep the scratch folder small
        }
        double waveMs = calibrateWave(latencyMs, workers);
        Run lat = run(cfgFile, base.resolve("latency"), latencyMs, workers, analystWorkers);
        List<CriticalPath.Phase> phases = CriticalPath.phases(lat.root, workers, analystWorkers);
        long waves = phases.stream().mapToLong(CriticalPath.Phase::waves).sum();
        long counted = phases.stream().mapToLong(CriticalPath.Phase::calls).sum();
        double boundS = waves * latencyMs / 1000.0, calibratedS = waves * waveMs / 1000.0;
        Run zero = run(cfgFile, base.resolve("zero-parallel"), 0, workers, analystWorkers);
        Run seq = run(cfgFile, base.resolve("zero-sequential"), 0, 1, 1);
        // the same three runs without fsync (-Dskillopt.fsync=false): what the framework costs apart from the disk
        String before = System.getProperty("skillopt.fsync");
        System.setProperty("skillopt.fsync", "false");
        Run latNs, zeroNs, seqNs;
        try {
            latNs = run(cfgFile, base.resolve("latency-nofsync"), latencyMs, workers, analystWorkers);
            zeroNs = run(cfgFile, base.resolve("zero-parallel-nofsync"), 0, workers, analystWorkers);
            seqNs = run(cfgFile, base.resolve("zero-sequential-nofsync"), 0, 1, 1);
        } finally {
            if (before == null) System.clearProperty("skillopt.fsync"); else System.setProperty("skillopt.fsync", before);
        }
        double floorMs = calibrateCall();

        StringBuilder md = new StringBuilder();
        md.append(START).append('\n');
        md.append("Measured by `skillopt bench train` (after " + warmups + " unmeasured zero-latency warm-up runs) on ").append(machine()).append(".\n\n");
        md.append(String.format(Locale.ROOT, "Run: `%s`, %d epoch(s), %d rollout workers, %d analyst workers, response cache off, "
                + "background rollouts %s (`train.background_eval`), simulator seed 7.%n%n", cfgFile.getFileName(), epochs, workers, analystWorkers,
                backgroundEval ? "on" : "off"));
        md.append("| measurement | fsync on (default) | `-Dskillopt.fsync=false` |\n|---|---|---|\n");
        row(md, "| model calls (server count / counted from run folder) | %d / %d | %d |%n", lat.calls, counted, latNs.calls);
        row(md, "| sequential phases / waves (Σ ⌈calls/workers⌉) | %d / %d | same |%n", phases.size(), waves);
        row(md, "| sequential-phase bound at %d ms (waves × latency) | %.2f s | %.2f s |%n", latencyMs, boundS, boundS);
        row(md, "| wall time at %d ms | %.2f s | %.2f s |%n", latencyMs, lat.wallS, latNs.wallS);
        row(md, "| **wall / bound** (target ≤ 1.02, below 1 where stages overlap; Python SkillOpt 1.125) | **%.3f** | **%.3f** |%n", lat.wallS / boundS, latNs.wallS / boundS);
        row(md, "| measured wave of %d bare calls at %d ms (client + simulator + OS, no trainer) | %.1f ms | same |%n", workers, latencyMs, waveMs);
        row(md, "| wall / (waves × measured wave) | %.3f | %.3f |%n", lat.wallS / calibratedS, latNs.wallS / calibratedS);
        row(md, "| wall at 0 ms, %d workers (amortised per call) | %.2f s (%.3f ms) | %.2f s (%.3f ms) |%n",
                workers, zero.wallS, zero.wallS * 1000 / zero.calls, zeroNs.wallS, zeroNs.wallS * 1000 / zeroNs.calls);
        row(md, "| wall per call at 0 ms, 1 worker | %.3f ms | %.3f ms |%n", seq.wallS * 1000 / seq.calls, seqNs.wallS * 1000 / seqNs.calls);
        row(md, "| of which in the simulator (request read → response flushed, per call) | %.3f ms | %.3f ms |%n", seq.serverMs / seq.calls, seqNs.serverMs / seqNs.calls);
        row(md, "| **framework overhead per call** (wall − simulator, 0 ms, 1 worker; target ≤ 0.5 ms; Python 5.5–6.4 ms) | **%.3f ms** | **%.3f ms** |%n",
                (seq.wallS * 1000 - seq.serverMs) / seq.calls, (seqNs.wallS * 1000 - seqNs.serverMs) / seqNs.calls);
        row(md, "| for scale: one bare chat call, same client and simulator, no trainer | %.3f ms | same |%n", floorMs);
        row(md, "| process CPU per call, 1 worker (framework + HTTP + in-process simulator + JIT/GC) | %.3f ms | %.3f ms |%n", seq.cpuMs / seq.calls, seqNs.cpuMs / seqNs.calls);
        md.append(END).append('\n');
        out.print(md);
        out.flush();
        if (write != null) {
            String doc = Files.exists(write) ? Files.readString(write) : "# Performance\n\n";
            int a = doc.indexOf(START), b = doc.indexOf(END);
            doc = a >= 0 && b > a ? doc.substring(0, a) + md + doc.substring(Math.min(doc.length(), b + END.length() + 1))
                    : doc.stripTrailing() + "\n\n" + md;
            AtomicFiles.writeString(write, doc);
            out.println("wrote " + write);
        }
        return 0;
    }

    private static void row(StringBuilder md, String format, Object... args) { md.append(String.format(Locale.ROOT, format, args)); }

    private record Run(Path root, double wallS, long calls, double serverMs, double cpuMs) {}

    private Run run(Path cfgFile, Path root, long latency, int w, int aw) {
        SkillOpt setup = setup(base(cfgFile).relaxed().onWarning(x -> {}), root).set("env.workers", w)
                .set("gradient.analyst_workers", aw).set("env.max_api_workers", Math.max(w, aw));
        long wallNs, c0, c1;
        SimServer sim = SimServer.builder().seed(7).latency(new Latency.Fixed(latency)).threads(Math.max(64, 4 * w)).start();
        try (sim) {
            Trainer trainer = setup.simulator(sim).trainer();
            c0 = cpuNanos();
            long t0 = System.nanoTime();
            trainer.train();
            wallNs = System.nanoTime() - t0;
            c1 = cpuNanos();
        }
        // read after close(): the server's per-call times are final then
        return new Run(root, wallNs / 1e9, sim.requests(), sim.serverNanos() / 1e6, (c1 - c0) / 1e6);
    }

    private SkillOpt base(Path cfgFile) {
        SkillOpt s = SkillOpt.config(cfgFile);
        // the demo config's skill_init is relative to the repository root; point at the file next to it
        if (config == null) s = s.set("env.skill_init", cfgFile.getParent().resolve("initial_skill.md").toString());
        return s.cfgOptions(extra.toArray(String[]::new));
    }

    private SkillOpt setup(SkillOpt s, Path root) {
        return s.set("env.out_root", root.toString()).set("train.num_epochs", epochs).set("model.response_cache", "off")
                .set("train.background_eval", backgroundEval);
    }

    /** Mean time of a wave of {@code w} parallel bare chat calls (distinct prompts) at {@code latency}: what a perfect trainer would see. */
    private static double calibrateWave(long latency, int w) throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(new Latency.Fixed(latency)).threads(Math.max(64, 4 * w)).start()) {
            OpenAiCompatibleChatModel m = OpenAiCompatibleChatModel.builder().baseUrl(sim.url()).apiKey("sk-bench").model("sim").maxConcurrency(w).build();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(w);
            try {
                int rounds = 12, n = 0;
                long total = 0;
                for (int r = 0; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
                    for (int i = 0; i < w; i++) {
                        String q = "calibration " + r + "." + i + ": answer 42";
                        fs.add(pool.submit(() -> m.chat(ChatRequest.of("# Skill", q))));
                    }
                    for (java.util.concurrent.Future<?> f : fs) f.get();
                    if (r >= 2) { total += System.nanoTime() - t0; n++; } // the first two open connections
                }
                return total / 1e6 / n;
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Mean time of one bare sequential chat call at zero latency (after warm-up): the HTTP client and simulator alone. */
    private static double calibrateCall() {
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            OpenAiCompatibleChatModel m = OpenAiCompatibleChatModel.builder().baseUrl(sim.url()).apiKey("sk-bench").model("sim").build();
            for (int i = 0; i < 2000; i++) m.chat(ChatRequest.of("# Skill", "warm-up " + i));
            long t0 = System.nanoTime();
            int n = 3000;
            for (int i = 0; i < n; i++) m.chat(ChatRequest.of("# Skill", "call " + i + ": format 2024-01-02"));
            return (System.nanoTime() - t0) / 1e6 / n;
        }
    }

    /** CPU time of this whole process (framework, HTTP client and the in-process simulator), or 0 if unknown. */
    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    static String machine() {
        String java = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        int cpus = Runtime.getRuntime().availableProcessors();
        String load = "";
        try {
            load = ", load average " + Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception ignored) { /* not Linux */ }
        return String.format(Locale.ROOT, "%s %s, nproc %d%s, %s", System.getProperty("os.name"), System.getProperty("os.arch"), cpus, load, java);
    }
}
