package io.skillopt4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.sim.SimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * {@code skillopt bench workload}: cold CLI training runs, as a user starts them, against the simulator or the shared
 * fake LLM; the timings come from the server's call log. {@code --searchqa DIR} is {@code DIR/searchqa-workload.sh}'s.
 */
@Command(name = "workload", mixinStandardHelpOptions = true,
        description = "Cold CLI training runs against the simulator or the shared fake LLM: start-up, per-call cost, idle gaps.")
final class BenchWorkloadCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Option(names = "--config", description = "Config to train (default: configs/demo/default.yaml; with --searchqa its upstream config).") Path config;
    @Option(names = "--server", defaultValue = "sim", description = "sim (in-process simulator) or fake (fake_llm_server.py). Default ${DEFAULT-VALUE}.") String server;
    @Option(names = "--fake-server", defaultValue = "../shared/bench/fake_llm_server.py", description = "The fake server script (default: ${DEFAULT-VALUE}).") Path fakeServer;
    @Option(names = "--searchqa", description = "The shared bench folder (e.g. ../shared/bench): run its SearchQA workload (implies --server fake).") Path searchqa;
    @Option(names = "--latency-ms", defaultValue = "0", description = "Latency per call (default: ${DEFAULT-VALUE}).") long latencyMs;
    @Option(names = "--latency-dist", description = "lognormal:MEDIAN_MS:SIGMA per call instead of --latency-ms (either server).") String latencyDist;
    @Option(names = "--rpm", description = "Fake server only: a token bucket of --burst tokens refilled at N requests per minute (429 when empty).") Double rpm;
    @Option(names = "--burst", description = "Fake server only: the token bucket's size (default: the server's, rpm/60).") Double burst;
    @Option(names = "--noise", description = "Fake server only: the target's answer flips with this probability.") Double noise;
    @Option(names = "--workers", description = "env.workers (rollout workers).") Integer workers;
    @Option(names = "--analyst-workers", description = "gradient.analyst_workers.") Integer analystWorkers;
    @Option(names = "--repeat", defaultValue = "3", description = "Cold runs (default: ${DEFAULT-VALUE}); medians are printed.") int repeat;
    @Option(names = "--warmup", defaultValue = "2", description = "Unmeasured runs first (default: ${DEFAULT-VALUE}): after a new build the launcher's first successful train run writes its start-up archive.") int warmup;
    @Option(names = "--launch", defaultValue = "./skillopt", description = "Command that starts the CLI (default: ${DEFAULT-VALUE}).") String launch;
    @Option(names = "--cfg-options", arity = "1..*", description = "More key=value overrides for every run.") List<String> extra = new ArrayList<>();
    @Option(names = "--dir", description = "Folder to put the runs under, in a fresh subfolder (default: the system temp folder); its disk is probed before each run.") Path dir;

    @Override public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!server.equals("sim") && !server.equals("fake")) throw ConfigException.badValue("bench workload", "--server", server, "sim or fake");
        if (repeat < 1) throw ConfigException.badValue("bench workload", "--repeat", String.valueOf(repeat), "an integer >= 1");
        if (warmup < 0) throw ConfigException.badValue("bench workload", "--warmup", String.valueOf(warmup), "an integer >= 0");
        boolean fake = server.equals("fake") || searchqa != null;
        io.skillopt4j.config.Checks checks = new io.skillopt4j.config.Checks();
        if (latencyDist != null) {
            try { Latency.parse(latencyDist); } catch (IllegalArgumentException e) { checks.add("--latency-dist: " + e.getMessage()); }
        }
        if (!fake && (rpm != null || burst != null || noise != null)) checks.add("--rpm, --burst and --noise need the fake server (--server fake or --searchqa)");
        checks.throwIfAny();
        Path work;
        try {
            // a fresh folder under --dir: a run folder left there by an earlier bench would resume instead of running
            work = dir == null ? Files.createTempDirectory("skillopt-bench-workload")
                    : Files.createTempDirectory(Files.createDirectories(dir), "skillopt-bench-workload");
        } catch (IOException e) {
            throw ConfigException.badValue("bench workload", "--dir", String.valueOf(dir), "a folder that can be created and written");
        }
        List<String> opts = new ArrayList<>();
        Path cfg = config;
        if (searchqa != null) {
            Path bench = searchqa.toAbsolutePath().normalize();
            if (!Files.isRegularFile(bench.resolve("make_data.py")))
                throw ConfigException.badValue("bench workload", "--searchqa", searchqa.toString(), "the shared bench folder (with make_data.py)");
            Path data = work.resolve("searchqa-data");
            List<String> make = List.of("python3", bench.resolve("make_data.py").toString(), data.toString());
            if (new ProcessBuilder(make).redirectErrorStream(true).redirectOutput(work.resolve("make_data.log").toFile()).start().waitFor() != 0)
                throw new ConfigException(String.join(" ", make) + " failed: see " + work.resolve("make_data.log"));
            if (cfg == null) cfg = bench.resolve("../reference/upstream-configs/searchqa/default.yaml").normalize();
            fakeServer = bench.resolve("fake_llm_server.py");
            opts.addAll(List.of("model.backend=openai_compatible", "model.optimizer=fake-optimizer", "model.target=fake-target",
                    "env.name=searchqa", "env.skill_init=" + bench.resolve("initial_skill.md"), "env.split_mode=split_dir",
                    "env.split_dir=" + data, "env.max_turns=1", "env.max_completion_tokens=16384", "env.exec_timeout=120",
                    "train.num_epochs=2", "train.batch_size=5", "train.train_size=0", "gradient.minibatch_size=2",
                    "gradient.merge_batch_size=2", "evaluation.sel_env_num=10", "evaluation.test_env_num=10",
                    "optimizer.slow_update_samples=6"));
            if (workers == null) workers = 4;
            if (analystWorkers == null) analystWorkers = 4;
        }
        if (cfg == null) cfg = RepoFiles.demoConfig();
        if (workers != null) opts.add("env.workers=" + workers);
        if (analystWorkers != null) opts.add("gradient.analyst_workers=" + analystWorkers);
        opts.addAll(extra);
        out.printf(Locale.ROOT, "bench workload: %s, %s server, %s latency, %s workers / %s analyst workers, %d cold run(s) of `%s train`%n",
                cfg, fake ? "fake (" + fakeServer + ")" : "simulator", latencyDist != null ? latencyDist : latencyMs + " ms", workers == null ? "config's" : workers,
                analystWorkers == null ? "config's" : analystWorkers, repeat, launch);
        for (int i = 1; i <= warmup; i++) {
            WorkloadStats w = run(fake, cfg, opts, work.resolve("warmup" + i));
            out.printf(Locale.ROOT, "warm-up %d (not measured): wall %.3f s%n", i, w.wallS());
            out.flush();
        }
        List<WorkloadStats> runs = new ArrayList<>();
        double[] disk = new double[repeat];
        for (int i = 1; i <= repeat; i++) {
            // a run creates hundreds of files: a disk slow for some minutes shows up as idle time
            disk[i - 1] = createMicros(work, PROBE_FILES);
            WorkloadStats st = run(fake, cfg, opts, work.resolve("run" + i));
            runs.add(st);
            out.printf(Locale.ROOT, "run %d: %d calls, wall %.3f s, launch -> first call %.3f s, %.2f ms per call, idle %.3f s (%d gaps, largest %.1f ms), disk %.0f us per file%s%n",
                    i, st.calls(), st.wallS(), st.startupS(), st.perCallMs(), st.idleS(), st.gaps(), st.largestGapMs(), disk[i - 1],
                    fake ? ", " + rejected.getOrDefault(work.resolve("run" + i), 0) + " requests refused with 429" : "");
            out.flush();
        }
        // the server's own share of a call: the last run's target requests replayed by a bare client in this JVM
        print(out, runs, disk, floorMs(fake, work.resolve("run" + repeat)));
        return 0;
    }

    /** One cold run against the simulator or (when {@code fake}) the fake server, timed from the server's call log. */
    private WorkloadStats run(boolean fake, Path cfg, List<String> opts, Path dir) throws Exception {
        if (!fake) {
            try (SimServer sim = SimServer.builder().latency(latencyDist != null ? Latency.parse(latencyDist) : new Latency.Fixed(latencyMs)).logCalls().start()) {
                double[] t = launch(cfg, opts, dir, sim.url());
                var calls = sim.calls().stream().map(c -> new WorkloadStats.Call(c.stage(), c.start(), c.end())).toList();
                return WorkloadStats.of(calls, t[0], t[1]);
            }
        }
        Fake started = startFake(dir, true);
        Process srv = started.process();
        try {
            double[] t = launch(cfg, opts, dir, started.url());
            srv.destroy();
            srv.waitFor(5, TimeUnit.SECONDS);
            List<WorkloadStats.Call> calls = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("calls.jsonl"))) {
                if (line.isBlank()) continue;
                JsonNode n = Json.tree(line);
                if (n.path("label").asText().equals("rejected_429")) {
                    rejected.merge(dir, 1, Integer::sum);
                    continue;
                }
                calls.add(new WorkloadStats.Call(n.path("label").asText(n.path("stage").asText("?")), n.path("t_start").asDouble(), n.path("t_end").asDouble()));
            }
            return WorkloadStats.of(calls, t[0], t[1]);
        } finally {
            srv.destroyForcibly();
        }
    }

    /** Requests the fake server refused with 429, per run folder. */
    private final Map<Path, Integer> rejected = new java.util.HashMap<>();

    /** A started fake server and its base URL. */
    private record Fake(Process process, String url) {}

    /** Starts the fake server with its port in {@code dir/port} and its call log in {@code dir/calls.jsonl}. */
    private Fake startFake(Path dir, boolean withFakeArgs) throws Exception {
        Files.createDirectories(dir);
        Path portFile = dir.resolve("port");
        List<String> cmd = new ArrayList<>(List.of("python3", fakeServer.toString(), "--port-file", portFile.toString(),
                "--latency-ms", String.valueOf(latencyMs), "--log", dir.resolve("calls.jsonl").toString()));
        if (withFakeArgs) { // the floor replay runs the bare server: no limits, no latency draws
            Json.obj("--latency-dist", latencyDist, "--rpm", rpm, "--burst", burst, "--noise", noise)
                    .forEach((k, v) -> { if (v != null) cmd.addAll(List.of(k, String.valueOf(v))); });
        }
        Process srv = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
        for (int i = 0; i < 500 && !(Files.isRegularFile(portFile) && Files.size(portFile) > 0); i++) {
            if (!srv.isAlive()) throw new ConfigException("fake server " + fakeServer + " exited: see " + dir.resolve("server.log"));
            Thread.sleep(20);
        }
        return new Fake(srv, "http://127.0.0.1:" + Files.readString(portFile).trim() + "/v1");
    }

    /** Mean ms per call of {@code runDir}'s target requests replayed by a bare warm client on a fresh server; NaN if none. */
    private double floorMs(boolean fake, Path runDir) throws Exception {
        List<Object> bodies = new ArrayList<>();
        try (var files = Files.walk(runDir.resolve("out"))) {
            for (Path sys : files.filter(f -> f.getFileName().toString().equals("target_system_prompt.txt")).sorted().toList()) {
                Path user = sys.resolveSibling("target_user_prompt.txt");
                if (!Files.isRegularFile(user)) continue;
                bodies.add(Json.obj("model", "fake-target", "messages", List.of(Map.of("role", "system", "content",
                        Files.readString(sys)), Map.of("role", "user", "content", Files.readString(user)))));
            }
        }
        if (bodies.isEmpty()) return Double.NaN;
        int n = Math.min(bodies.size(), latencyMs == 0 ? 100 : 10);
        if (!fake) {
            try (SimServer sim = SimServer.builder().latency(new Latency.Fixed(latencyMs)).start()) {
                return replay(sim.url(), bodies.subList(0, n));
            }
        }
        Fake srv = startFake(runDir.resolve("floor"), false); // the bare server: no limits, no latency draws
        try {
            return replay(srv.url(), bodies.subList(0, n));
        } finally {
            srv.process().destroyForcibly();
        }
    }

    private static double replay(String baseUrl, List<Object> bodies) {
        var client = io.skillopt4j.backend.internal.Http.client(java.time.Duration.ofSeconds(120), baseUrl);
        var policy = new io.skillopt4j.backend.internal.Http.Policy("bench", 1, io.skillopt4j.backend.Backoff.NONE, java.time.Duration.ofSeconds(120));
        Map<String, String> headers = Map.of("Authorization", "Bearer dummy");
        String url = baseUrl + "/chat/completions";
        for (Object b : bodies) io.skillopt4j.backend.internal.HttpCall.postJson(client, url, headers, b, policy); // warm-up pass
        long t0 = System.nanoTime();
        for (Object b : bodies) io.skillopt4j.backend.internal.HttpCall.postJson(client, url, headers, b, policy);
        return (System.nanoTime() - t0) / 1e6 / bodies.size();
    }

    /** Runs one cold {@code train}; returns {launch epoch seconds, wall seconds}. */
    private double[] launch(Path cfg, List<String> opts, Path dir, String baseUrl) throws Exception {
        List<String> cmd = new ArrayList<>(Arrays.asList(launch.trim().split("\\s+")));
        cmd.addAll(List.of("train", "--config", cfg.toString(), "--cfg-options", "env.out_root=" + dir.resolve("out")));
        cmd.addAll(opts);
        Files.createDirectories(dir);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.txt").toFile());
        pb.environment().putAll(SimServer.environment(baseUrl));
        double t0 = System.currentTimeMillis() / 1000.0;
        long n0 = System.nanoTime();
        int rc = pb.start().waitFor();
        double wall = (System.nanoTime() - n0) / 1e9;
        if (rc != 0) {
            List<String> lines = Files.readAllLines(dir.resolve("stdout.txt"));
            throw new IllegalStateException("`" + String.join(" ", cmd.subList(0, Math.min(cmd.size(), 4))) + " …` exited " + rc + ": "
                    + String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size())));
        }
        return new double[] {t0, wall};
    }

    static final int PROBE_FILES = 200;

    /** Mean µs to create, write (1 KB) and close one of {@code n} new files in a fresh folder under {@code dir}, removed after. */
    static double createMicros(Path dir, int n) throws IOException {
        Path probe = Files.createTempDirectory(Files.createDirectories(dir), "disk-probe");
        byte[] kb = "x".repeat(1024).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) Files.write(probe.resolve("f" + i), kb);
            return (System.nanoTime() - t0) / 1000.0 / n;
        } finally {
            io.skillopt4j.internal.AtomicFiles.deleteTreeQuietly(probe);
        }
    }

    static void print(PrintWriter out, List<WorkloadStats> runs, double[] diskMicros, double floorMs) {
        out.println();
        out.println("| same calls, cold CLI runs (median, min–max of " + runs.size() + ") | SkillOpt4J |");
        out.println("|---|---|");
        row(out, "model calls", runs, WorkloadStats::calls, "%.0f");
        row(out, "wall, launch → exit (s)", runs, WorkloadStats::wallS, "%.3f");
        row(out, "launch → first model call (s)", runs, WorkloadStats::startupS, "%.3f");
        row(out, "in-loop cost per call, first → last call / calls (ms)", runs, WorkloadStats::perCallMs, "%.2f");
        row(out, "time with no call in flight (s)", runs, WorkloadStats::idleS, "%.3f");
        row(out, "largest gap (ms)", runs, WorkloadStats::largestGapMs, "%.1f");
        row(out, "creating a 1 KB file in the runs' folder, before each run (µs)", diskMicros, "%.0f");
        if (!Double.isNaN(floorMs)) {
            row(out, "for scale: the same server's round trip per call for a bare warm client, the last run's target requests replayed (ms)",
                    new double[] {floorMs}, "%.2f");
        }
        WorkloadStats mid = runs.stream().sorted((a, b) -> Double.compare(a.wallS(), b.wallS())).toList().get(runs.size() / 2);
        String top = mid.idleByTransition().entrySet().stream().limit(4).map(e -> String.format(Locale.ROOT,
                "%s %d× %.1f ms (max %.1f)", e.getKey(), (int) e.getValue()[0], e.getValue()[1], e.getValue()[2])).collect(Collectors.joining("; "));
        out.println("| idle by transition, median-wall run | " + top + " |");
        out.flush();
    }

    private static void row(PrintWriter out, String name, List<WorkloadStats> runs, ToDoubleFunction<WorkloadStats> f, String fmt) {
        row(out, name, runs.stream().mapToDouble(f).toArray(), fmt);
    }

    private static void row(PrintWriter out, String name, double[] values, String fmt) {
        double[] v = Arrays.stream(values).sorted().toArray();
        out.println("| " + name + " | " + String.format(Locale.ROOT, fmt, WorkloadStats.median(v))
                + (v.length > 1 ? " (" + String.format(Locale.ROOT, fmt, v[0]) + "–" + String.format(Locale.ROOT, fmt, v[v.length - 1]) + ")" : "") + " |");
    }
}
