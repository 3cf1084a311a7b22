package io.skillopt4j.bench;

import io.skillopt4j.frames.RunFrames;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * Not thread-safe; one per invocation. {@code skillopt bench frames}: loading a generated Python-shaped run folder
 * into frames, against a raw Jackson parse of the same JSON bytes.
 */
@Command(name = "frames", description = "Measure run-folder → frames load time against a raw Jackson parse of the same files.")
public final class BenchFramesCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Option(names = "--steps", defaultValue = "40", description = "Steps in the generated run (default: ${DEFAULT-VALUE}).") int steps;
    @Option(names = "--train", defaultValue = "50", description = "Training rollouts per step (default: ${DEFAULT-VALUE}).") int train;
    @Option(names = "--val", defaultValue = "200", description = "Selection rollouts per step and val/test size (default: ${DEFAULT-VALUE}).") int val;
    @Option(names = "--repeat", defaultValue = "10", description = "Measured repetitions (default: ${DEFAULT-VALUE}).") int repeat;
    @Option(names = "--warmups", defaultValue = "5", description = "Unmeasured warm-up repetitions (default: ${DEFAULT-VALUE}).") int warmups;
    @Option(names = "--dir", description = "Where to generate the run (default: a temp folder, deleted afterwards).") Path dir;

    @Override public Integer call() throws IOException {
        new io.skillopt4j.config.Checks().atLeast("--steps", steps, 1).atLeast("--train", train, 1).atLeast("--val", val, 1).atLeast("--repeat", repeat, 1)
                .atLeast("--warmups", warmups, 0).outputDir("--dir", dir).throwIfAny();
        PrintWriter out = spec.commandLine().getOut();
        boolean temp = dir == null;
        Path run = temp ? Files.createTempDirectory("skillopt-bench-frames") : dir;
        try {
            int records = generate(run, steps, train, val, 42);
            List<Path> files;
            try (Stream<Path> s = Files.walk(run)) {
                files = s.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".jsonl")).sorted().toList();
            }
            long bytes = 0;
            for (Path f : files) bytes += Files.size(f);
            out.printf(Locale.ROOT, "generated %s: %d steps, %d rollout records, %d JSON files, %.1f MB%n",
                    run, steps, records, files.size(), bytes / 1e6);
            double[] raw = new double[repeat];
            double[] frames = new double[repeat];
            for (int i = -warmups; i < repeat; i++) {
                long t0 = System.nanoTime();
                long n = rawParse(files);
                long t1 = System.nanoTime();
                RunFrames f = RunFrames.load(run);
                long rows = f.steps().rowCount() + f.epochs().rowCount() + f.edits().rowCount() + f.rollouts().rowCount() + f.tokens().rowCount();
                long t2 = System.nanoTime();
                if (n == 0 || rows == 0) throw new IllegalStateException("nothing parsed");
                if (i >= 0) { raw[i] = (t1 - t0) / 1e6; frames[i] = (t2 - t1) / 1e6; }
            }
            double r = WorkloadStats.median(raw), fr = WorkloadStats.median(frames);
            out.printf(Locale.ROOT, "raw Jackson parse of the same files: median %.1f ms (min %.1f) over %d runs%n", r, min(raw), repeat);
            out.printf(Locale.ROOT, "RunFrames.load + steps/epochs/edits/rollouts/tokens: median %.1f ms (min %.1f)%n", fr, min(frames));
            out.printf(Locale.ROOT, "ratio frames/raw: %.2f  (java %s, %d cpus)%n", fr / r, System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors());
            return 0;
        } finally {
            if (temp) AtomicFiles.deleteTree(run);
        }
    }

    /** Parses every JSON value of the files (a .json file's one, a .jsonl file's one per line); returns how many. */
    private static long rawParse(List<Path> files) throws IOException {
        long n = 0;
        for (Path f : files) {
            byte[] b = Files.readAllBytes(f);
            if (f.toString().endsWith(".jsonl")) {
                n += Json.mapper().readerFor(Object.class).readValues(b).readAll().size();
            } else {
                Json.mapper().readValue(b, Object.class);
                n++;
            }
        }
        return n;
    }

    /** Writes a Python-shaped run folder; returns the number of rollout records. */
    static int generate(Path run, int steps, int train, int val, long seed) {
        Random rnd = new Random(seed);
        int spe = Math.max(1, steps / 4);
        int records = 0;
        Map<String, Object> cfg = Json.obj("env", "searchqa", "optimizer_model", "bench-opt", "target_model", "bench-tgt",
                "num_epochs", (steps + spe - 1) / spe, "steps_per_epoch", spe, "batch_size", train);
        write(run.resolve("config.json"), Json.pretty(cfg));
        write(run.resolve("skills/skill_v0000.md"), "# Skill\n\n(No learned rules yet.)\n");
        records += results(run.resolve("selection_eval_baseline"), "val", val, 0.3, rnd);
        records += results(run.resolve("test_eval_baseline"), "test", val, 0.3, rnd);
        List<Object> history = new ArrayList<>();
        double best = 0.3;
        for (int s = 1; s <= steps; s++) {
            Path d = run.resolve(String.format("steps/step_%04d", s));
            double p = Math.min(0.95, 0.3 + s * 0.015);
            records += results(d.resolve("rollout"), "train", train, p, rnd);
            records += results(d.resolve("selection_eval"), "val", val, p, rnd);
            List<Object> edits = new ArrayList<>();
            for (int e = 0; e < 6; e++) edits.add(Map.of("op", e % 2 == 0 ? "append" : "replace", "target", "## Rule " + e,
                    "content", "- Rule " + s + "." + e + ": answer with the shortest exact span.", "source_type", "failure", "support_count", 6 - e));
            write(d.resolve("merged_patch.json"), Json.pretty(Map.of("reasoning", "merged", "edits", edits)));
            write(d.resolve("ranked_edits.json"), Json.pretty(Map.of("reasoning", "ranked", "edits", edits.subList(0, 4))));
            write(d.resolve("patches/minibatch_fail_000.json"), Json.pretty(Map.of("batch_size", 2, "source_type", "failure",
                    "patch", Map.of("reasoning", "r", "edits", edits))));
            double sel = Math.round(p * 1000) / 1000.0;
            String action = sel > best ? "accept_new_best" : "reject";
            best = Math.max(best, sel);
            Map<String, Object> rec = Json.obj("step", s, "epoch", (s - 1) / spe + 1, "step_in_epoch", (s - 1) % spe,
                    "timing", Map.of("rollout_s", 3.1, "reflect_s", 2.0, "evaluate_s", 4.2),
                    "tokens", Map.of("analyst", Map.of("calls", 4, "prompt_tokens", 4000, "completion_tokens", 600),
                    "rollout", Map.of("calls", train + val, "prompt_tokens", 250 * (train + val), "completion_tokens", 30 * (train + val))),
                    "rollout_hard", p, "rollout_soft", p, "rollout_n", train, "n_patches", 1,
                    "n_edits_merged", 6, "n_edits_ranked", 4, "edit_budget", 4,
                    "edit_apply_summary", Map.of("total", 4, "applied", 3, "skipped", 1, "errors", 0),
                    "selection_hard", sel, "selection_soft", sel, "candidate_gate_score", sel, "action", action,
                    "current_score", best, "best_score", best, "best_step", s, "skill_len", 400 + 10 * s, "wall_time_s", 9.3);
            write(d.resolve("step_record.json"), Json.pretty(rec));
            write(run.resolve(String.format("skills/skill_v%04d.md", s)), "# Skill\n\n- rule " + s + "\n");
            write(d.resolve("candidate_skill.md"), "# Skill\n\n- rule " + s + "\n");
            history.add(rec);
        }
        write(run.resolve("history.json"), Json.pretty(history));
        write(run.resolve("best_skill.md"), "# Skill\n\n- best\n");
        write(run.resolve("runtime_state.json"), Json.pretty(Map.of("last_completed_step", steps, "best_score", best, "best_step", steps)));
        records += results(run.resolve("test_eval"), "test", val, best, rnd);
        write(run.resolve("summary.json"), Json.pretty(Json.obj("version", "skillopt-0.1.0", "config", cfg,
                "baseline_selection_hard", 0.3, "best_selection_hard", best, "best_step", steps, "total_steps", steps,
                "baseline_test_hard", 0.3, "test_hard", best, "total_wall_time_s", 9.3 * steps)));
        return records;
    }

    private static int results(Path dir, String split, int n, double p, Random rnd) {
        StringBuilder sb = new StringBuilder();
        String[] types = {"who", "when", "where", "what"};
        for (int i = 0; i < n; i++) {
            boolean ok = rnd.nextDouble() < p;
            sb.append(Json.line(Json.obj("id", "q-" + split + "-" + i,
                    "question", "Which town is home to the archive number " + i + " of the northern coast?",
                    "task_type", types[i % 4], "em", ok ? 1.0 : 0.0, "f1", ok ? 1.0 : 0.4, "hard", ok ? 1 : 0, "soft", ok ? 1.0 : 0.4,
                    "predicted_answer", ok ? "Ormsby" : "It is Veltra, as stated in the passage", "gold_answers", List.of("Ormsby"),
                    "response", "The question asks about archive " + i + ". I checked the passages.\n<answer>Ormsby</answer>",
                    "fail_reason", ok ? "" : "EM=0: predicted 'It is Veltra' but expected ['Ormsby']",
                    "agent_ok", true, "n_turns", 1))).append('\n');
        }
        write(dir.resolve("results.jsonl"), sb.toString());
        return n;
    }

    private static void write(Path f, String text) {
        try {
            Files.createDirectories(f.getParent());
            Files.writeString(f, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(f + ": " + e.getMessage(), e);
        }
    }

    private static double min(double[] a) { return Arrays.stream(a).min().orElse(0); }
}
