package io.skillopt4j.bench;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.RunParts;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.sim.Latency;
import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.sim.SimServer;
import io.skillopt4j.temporal.DevServer;
import io.skillopt4j.temporal.EngineFloor;
import io.skillopt4j.temporal.EngineWorker;
import io.skillopt4j.temporal.TemporalEngineFactory;
import io.skillopt4j.temporal.TemporalSettings;
import io.skillopt4j.temporal.WorkerActivities;
import io.skillopt4j.train.ExecutionEngine;
import io.skillopt4j.train.Trainer;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The measurements of {@code skillopt bench engine}; everything on loopback (dev server, workers, simulator in this JVM). */
final class EngineBench {
    private EngineBench() {}

    static int run(Path base, int calls, int warmup, int nItems, long latencyMs, int epochs, int workers, int slots, PrintWriter out) throws Exception {
        out.println("## skillopt bench engine (" + java.time.LocalDate.now() + ", " + Runtime.getRuntime().availableProcessors() + " cores)");
        out.println();
        try (DevServer server = DevServer.start(0)) {
            TemporalSettings s = TemporalSettings.of(server.address(), "bench");
            // 1. overhead per activity at 0 ms: sequential optimizer calls, and one rollout batch of many items
            try (SimServer sim = SimServer.builder().seed(7).latency(new Latency.Fixed(0)).start()) {
                FlatConfig cfg = demo(base.resolve("zero"), 1, workers * slots, server.address()).resolve().flat();
                try (Workers ws = startWorkers(s, workers, slots, sim.url(), base)) {
                    RunParts parts = RunParts.assemble(cfg, SimServer.environment(sim.url()), base.resolve("zero"), null);
                    ModelRoles roles = parts.roles();
                    Benchmark bench = parts.benchmark();
                    try (ExecutionEngine engine = new TemporalEngineFactory().open(new ExecutionEngine.RunContext(cfg, base.resolve("zero"), roles.usage()))) {
                        ChatModel remote = engine.optimizer(roles.optimizer());
                        // the JIT keeps speeding up the gRPC, protobuf and SDK paths for thousands of calls
                        for (int i = 0; i < warmup; i++) { remote.chat(request(-1 - i)); roles.optimizer().chat(request(-1_000_000 - i)); }
                        long c0 = EngineFloor.cpuNanos();
                        double localMs = serial(roles.optimizer(), calls, 0);
                        long c1 = EngineFloor.cpuNanos();
                        double remoteMs = serial(remote, calls, 100_000);
                        long c2 = EngineFloor.cpuNanos();
                        double localCpu = (c1 - c0) / 1e6 / calls, remoteCpu = (c2 - c1) / 1e6 / calls;
                        // the floor (one no-op activity, none of our code) after ours, so the SDK's paths are compiled for both
                        EngineFloor.Figure floor = EngineFloor.measure(s, Math.min(warmup, 100), calls);
                        out.printf(Locale.ROOT, "- floor (dev server + SDK alone): workflow with one no-op activity, sequential, %d calls: %.2f ms/call "
                                + "(CPU of this JVM %.2f ms/call); load average %s%n", calls, floor.wallMs(), floor.cpuMs(), load());
                        out.printf(Locale.ROOT, "- optimizer call, sequential, %d calls after %d warm-up calls: local %.2f ms/call, temporal %.2f ms/call -> **overhead %.2f ms per activity**, "
                                + "%+.2f ms above the floor (CPU of this JVM — coordinator, worker, dev server, simulator: %.2f vs %.2f ms/call, +%.2f ms); load average %s%n",
                                calls, warmup, localMs, remoteMs, remoteMs - localMs, remoteMs - localMs - floor.wallMs(), localCpu, remoteCpu, remoteCpu - localCpu, load());
                        List<Item> items = new ArrayList<>();
                        List<Item> pool = new ArrayList<>(bench.data().buildEvalBatch(0, "valid_unseen", 42).items());
                        for (int i = 0; i < nItems; i++) { // distinct ids: the same task more than once in a batch
                            Item it = pool.get(i % pool.size());
                            items.add(new Item(it.id() + "#" + i, it.fields()));
                        }
                        BatchSpec batch = new BatchSpec("eval", "valid_unseen", 42, items);
                        bench.rollout(new RolloutRequest(batch, "", base.resolve("zero/warmup-local"), false));
                        bench.rollout(new RolloutRequest(batch, "", base.resolve("zero/warmup-temporal"), false).withRemote(engine.rolloutItems()));
                        long t0 = System.nanoTime();
                        bench.rollout(new RolloutRequest(batch, "", base.resolve("zero/rollout-local"), false));
                        double localWall = (System.nanoTime() - t0) / 1e6;
                        t0 = System.nanoTime();
                        bench.rollout(new RolloutRequest(batch, "", base.resolve("zero/rollout-temporal"), false).withRemote(engine.rolloutItems()));
                        double remoteWall = (System.nanoTime() - t0) / 1e6;
                        int par = workers * slots;
                        out.printf(Locale.ROOT, "- rollout batch of %d items, %d in parallel: local %.0f ms, temporal %.0f ms -> %.2f ms per item-slot (wall difference × parallelism / items)%n",
                                items.size(), par, localWall, remoteWall, (remoteWall - localWall) * par / items.size());
                    }
                }
            }
            // 2. wall time of a training at a fixed latency: temporal (workers × slots) vs local (workers·slots threads)
            try (SimServer sim = SimServer.builder().seed(7).latency(new Latency.Fixed(latencyMs)).threads(128).start()) {
                int par = workers * slots;
                double localS = train(base.resolve("train-local"), epochs, par, "", sim);
                double remoteS;
                try (Workers ws = startWorkers(s, workers, slots, sim.url(), base)) {
                    remoteS = train(base.resolve("train-temporal"), epochs, par, server.address(), sim);
                }
                boolean same = io.skillopt4j.run.RunDiff.of(base.resolve("train-local"), base.resolve("train-temporal")).isEmpty();
                out.printf(Locale.ROOT, "- training (demo config, %d epoch(s)) at %d ms latency: local %d workers %.1f s, temporal %d workers × %d slots %.1f s -> **%.2f×**; run folders equal: %s; load average %s%n",
                        epochs, latencyMs, par, localS, workers, slots, remoteS, remoteS / localS, same ? "yes" : "NO", load());
            }
        }
        out.flush();
        return 0;
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static double serial(ChatModel m, int n, int salt) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) m.chat(request(salt + i));
        return (System.nanoTime() - t0) / 1e6 / n;
    }

    /** A small optimizer-stage request (the simulator answers it with its note), distinct per {@code i}: distinct workflow ids. */
    private static ChatRequest request(int i) {
        return ChatRequest.builder().system("You merge edit proposals. Reply with JSON.").user("## Current Skill\n# Skill\n\n## Proposals (" + i + ")\n[]")
                .stage("merge").retries(1).build();
    }

    /** The started workers, closed together. */
    private record Workers(List<EngineWorker> all) implements AutoCloseable {
        @Override public void close() { all.forEach(EngineWorker::close); }
    }

    private static Workers startWorkers(TemporalSettings s, int n, int slots, String simUrl, Path base) {
        List<EngineWorker> ws = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            String name = "bench-worker-" + i;
            ws.add(EngineWorker.start(s.connect(), s, new EngineWorker.Capacity(slots, 0, 0), name,
                    new WorkerActivities(name, base.resolve(name), WorkerActivities.fromEnvironment(SimServer.environment(simUrl)))));
        }
        return new Workers(ws);
    }

    /** Trains the demo config through the one assembly path, on the Temporal engine when {@code address} is set. */
    private static double train(Path root, int epochs, int par, String address, SimServer sim) {
        Trainer trainer = demo(root, epochs, par, address).simulator(sim).trainer();
        long t0 = System.nanoTime();
        trainer.train();
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The demo config with {@code par} rollout and analyst workers, on the Temporal engine at {@code address} when it is set. */
    private static SkillOpt demo(Path root, int epochs, int par, String address) {
        Path cfgFile = RepoFiles.demoConfig();
        SkillOpt setup = SkillOpt.config(cfgFile).relaxed().onWarning(x -> {}).set("env.out_root", root.toString())
                .set("env.skill_init", cfgFile.getParent().resolve("initial_skill.md").toString()).set("train.num_epochs", epochs)
                .set("env.workers", par).set("gradient.analyst_workers", par).set("model.response_cache", "off").set("env.max_api_workers", par);
        return address.isEmpty() ? setup : setup.engine("temporal").set("engine.address", address).set("engine.task_queue", "bench");
    }
}
