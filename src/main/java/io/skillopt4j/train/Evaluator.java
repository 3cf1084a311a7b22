package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.RunPaths;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. Evaluates one skill without training, as upstream's {@code eval_only.py}, into {@code outRoot}; calls are
 * priced into {@code ledger} (null = none), bound to {@code <out_root>/cost_ledger.jsonl} across re-runs.
 */
public record Evaluator(FlatConfig config, Benchmark benchmark, Path skill, String split, Path outRoot,
                        CostLedger ledger) {
    public Evaluator {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(benchmark, "benchmark");
        skill = Objects.requireNonNull(skill, "skill").toAbsolutePath().normalize();
        split = split == null || split.isBlank() ? "all" : split;
        outRoot = Objects.requireNonNull(outRoot, "outRoot").toAbsolutePath().normalize();
    }

    public Evaluator(FlatConfig config, Benchmark benchmark, Path skill, String split, Path outRoot) {
        this(config, benchmark, skill, split, outRoot, null);
    }

    /**
     * Returns the eval_summary map; a budget or errored stop throws, and so does an interrupt ({@link
     * io.skillopt4j.TrainingInterrupted}), their finished items kept for a rerun.
     */
    public Map<String, Object> run() {
        if (!Files.isRegularFile(skill) && !Files.isDirectory(skill)) throw new ConfigException("--skill: file not found: " + skill);
        // one process per folder; rows of another skill evaluated into this folder are redone (RolloutStamp)
        try (io.skillopt4j.run.RunLock lock = io.skillopt4j.run.RunLock.acquire(outRoot, "eval")) {
            return runLocked();
        } catch (RuntimeException e) {
            throw io.skillopt4j.TrainingInterrupted.ofEvaluation(e, outRoot.toAbsolutePath().normalize());
        } finally {
            if (ledger != null) ledger.closeFile();
        }
    }

    private Map<String, Object> runLocked() {
        // an evaluation killed mid-append left half a row: cut it before this one appends (the ledger's too)
        io.skillopt4j.internal.AtomicFiles.repairTornLines(outRoot);
        if (ledger != null) {
            ledger.attach(outRoot.resolve(io.skillopt4j.run.RunPaths.COST_LEDGER));
            ledger.phase("eval");
        }
        // a folder is an Agent Skill bundle (docs/skills.md), evaluated as training would deliver it
        String text = Files.isDirectory(skill) ? io.skillopt4j.env.SkillBundle.read(skill, "--skill").pack() : Trajectories.readFile(skill);
        DataLoader data = benchmark.data();
        data.writeGenerated(); // only now that the folder is locked: a refused evaluation writes nothing
        long seed = Setting.longValue("seed").of(config);
        BatchSpec batch = !split.equals("all") ? data.buildEvalBatch(Setting.integer("test_env_num").of(config), split, seed)
                : new BatchSpec("eval", "all", seed, java.util.stream.Stream.of("train", "valid_seen", "valid_unseen")
                        .flatMap(sp -> data.buildEvalBatch(0, sp, seed).items().stream()).toList());
        Rollout.Outcome o = new Rollout(benchmark).withBatchApi(Rollout.batchPoll(config))
                .withErrored(Rollout.maxErroredFraction(config), null).run(batch, text, outRoot, false);
        Map<String, Object> m = Json.obj("skill", skill.toString(), "split", split, "n_items", batch.size(),
                "hard", o.hard(), "soft", o.soft());
        new RunWriter(new RunPaths(outRoot)).json(outRoot.resolve("eval_summary.json"), m);
        return m;
    }
}
