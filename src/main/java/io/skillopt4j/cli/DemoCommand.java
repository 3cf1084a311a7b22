package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.bench.RepoFiles;
import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.frames.Report;
import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.frames.RunFrames;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.Trainer;
import io.skillopt4j.train.TrainingResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe (picocli command object). {@code skillopt demo}: trains {@code configs/demo/default.yaml} against the
 * in-process simulator through the real backend and trainer, then prints the scores. Accepts every {@code train} flag;
 * with a backend flag given it runs against real models instead.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run a full training run offline on the built-in simulator (house-rules benchmark).")
final class DemoCommand extends CliCommand {
    @Option(names = "--sim-seed", defaultValue = "" + SimServer.DEFAULT_SEED, description = "Simulator seed (default: ${DEFAULT-VALUE}).") long simSeed;
    @Option(names = "--sim-latency-ms", defaultValue = "0", description = "Simulated latency per call: N, A-B or lognormal:MEDIAN:SIGMA (default: ${DEFAULT-VALUE}).") String latency;
    @Option(names = "--sim-batch-delay-ms", defaultValue = "0", description = "Time a simulated Batch API batch takes to complete (evaluation.batch_api=true) (default: ${DEFAULT-VALUE}).") long batchDelayMs;
    @Option(names = "--sim-faults", defaultValue = "none", description = "Faults the simulator injects per HTTP attempt, e.g. "
            + "429=0.1,500=0.1,malformed=0.05,truncated=0.05 (names: " + io.skillopt4j.sim.Faults.NAMES + "; docs/simulator.md) (default: ${DEFAULT-VALUE}).") String simFaults;
    @Option(names = "--sim-noise", defaultValue = "0", description = "Probability that the simulated target's answer is flipped, drawn anew for every request "
            + "(a re-evaluation differs, as a sampling model's would); show the honest gate with --gate_test paired_bootstrap (docs/training.md) (default: ${DEFAULT-VALUE}).") double simNoise;
    @Option(names = "--sim-noise-seed", defaultValue = "0", description = "Seed of the --sim-noise draws (default: ${DEFAULT-VALUE}).") long simNoiseSeed;
    @Option(names = "--no-progress", description = "No progress bar.") boolean noProgress;

    static CommandLine commandLine() { return ConfigOptions.train().configOptional().commandLine(new DemoCommand()); }

    @Override public Integer call() {
        ParseResult pr = spec.commandLine().getParseResult();
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        boolean realBackend = pr.hasMatchedOption("--backend") || pr.hasMatchedOption("--optimizer_backend") || pr.hasMatchedOption("--target_backend");
        ConfigRequest req = ConfigOptions.train().configOptional().request(pr);
        List<ConfigRequest.Override> defaults = new ArrayList<>();
        if (req.config() == null) {
            Path config = RepoFiles.demoConfig();
            req = req.withConfig(config);
            if (!pr.hasMatchedOption("--skill_init"))
                defaults.add(ConfigRequest.Override.typed("env.skill_init", config.getParent().resolve("initial_skill.md").toString()));
        }
        defaults.add(ConfigRequest.Override.typed("model.response_cache", "read_write"));
        // one resolution: the timestamped out_root is fixed before it is printed
        SkillOpt setup = SkillOpt.request(req.withOverridesFirst(defaults)).cliWarnings().onWarning(err::println)
                .clock(Clock.fixed(Instant.now(), ZoneId.systemDefault()));
        // every static problem at once, before the simulator starts or anything is printed
        io.skillopt4j.config.Checks checks = new io.skillopt4j.config.Checks().atLeast("--sim-batch-delay-ms", batchDelayMs, 0)
                .range("--sim-noise", simNoise, 0, 1);
        Latency lat = null;
        try { lat = Latency.parse(latency); } catch (IllegalArgumentException e) { checks.add("--sim-latency-ms: " + e.getMessage()); }
        io.skillopt4j.sim.Faults faults = io.skillopt4j.sim.Faults.none();
        try { faults = io.skillopt4j.sim.Faults.parse(simFaults); } catch (IllegalArgumentException e) { checks.add("--sim-faults: " + e.getMessage()); }
        ResolvedConfig cfg = null;
        try { cfg = setup.check(); } catch (ConfigException e) { checks.add(e.getMessage()); }
        checks.throwIfAny();
        Path outRoot = cfg.run().env().outRoot();
        boolean resuming = Files.exists(outRoot.resolve("runtime_state.json"));
        SimServer sim = null;
        try {
            String banner;
            if (realBackend) {
                // openai_compatible without a base URL is a config error, raised below where the backends are built
                banner = "skillopt demo: using the configured backends (" + cfg.run().model().optimizerBackend() + " / "
                        + cfg.run().model().targetBackend() + "), not the simulator";
            } else {
                sim = SimServer.builder().seed(simSeed).latency(lat).faults(faults).noise(simNoise, simNoiseSeed)
                        .batchDelay(java.time.Duration.ofMillis(Math.max(0, batchDelayMs))).start();
                setup = setup.simulator(sim);
                banner = "skillopt demo: simulator (a deterministic stand-in for an LLM) at " + sim.url() + ", seed " + simSeed
                        + (faults.any() ? ", faults " + faults : "") + (simNoise > 0 ? ", target noise " + simNoise + " (seed " + simNoiseSeed + ")" : "");
            }
            DemoProgress progress = new DemoProgress(err, !noProgress);
            Trainer trainer = setup.onWarning(w -> {}).listener(progress).rolloutProgress(progress).trainer();
            err.println(banner);
            err.println("skillopt demo: " + (resuming ? "resuming " : "run folder ") + outRoot);
            err.flush();
            progress.ledger(trainer.ledger());
            TrainingResult r = trainer.train();
            progress.finish();
            if (r.stopped()) {
                err.println(r.summary().getOrDefault("message", "skillopt demo: stopped; run the same command again to resume"));
                err.flush();
                return "errored".equals(r.summary().get("stop_reason")) ? TrainCommand.EXIT_ERRORED : 1;
            }
            Path report = writeReport(outRoot, err);
            DemoProgress.printSummary(out, r.summary(), outRoot, report, trainer.ledger(), !realBackend);
            out.flush();
            return 0;
        } finally {
            if (sim != null) sim.close();
        }
    }

    /** Writes report.html with the frames helper's report; a failure there is reported, not fatal. */
    private static Path writeReport(Path outRoot, PrintWriter err) {
        try {
            return Report.of(List.of(RunFrames.load(outRoot))).write(outRoot.resolve("report.html"));
        } catch (RuntimeException e) {
            err.println("skillopt demo: report not written: " + e.getMessage());
            return null;
        }
    }
}
