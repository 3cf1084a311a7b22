package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Redactor;
import io.skillopt4j.run.RunPaths;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Not thread-safe; used once. After the loop (upstream §2.9–2.10): final selection, test evaluations, summary. */
final class Finish {
    private final RunScope run;
    private final RunStages stages;
    private final RunState st;
    private final Benchmark benchmark;
    private final DataLoader data;
    private final RunPaths paths;
    private final Map<String, Object> config;

    Finish(RunScope run, RunStages stages, RunState st, Benchmark benchmark, DataLoader data, RunPaths paths,
           Map<String, Object> config) {
        this.run = run;
        this.stages = stages;
        this.st = st;
        this.benchmark = benchmark;
        this.data = data;
        this.paths = paths;
        this.config = config;
    }

    /** best_skill.md then runtime_state.json, one disk flush. */
    private void commitBest(int globalStep) {
        st.persist(run.writer().batch().text(paths.bestSkill(), st.bestSkill), paths, globalStep).commit();
    }

    /** "final skill (origin) 0.900 > best 0.850: ..." for the final selection's progress line. */
    private String finalSelectionDetail(double score) {
        String best = io.skillopt4j.internal.Decimals.fixed(st.bestScore, 3);
        return "final skill " + (st.currentOrigin == null ? "" : "(" + st.currentOrigin + ") ") + io.skillopt4j.internal.Decimals.fixed(score, 3)
                + (score > st.bestScore ? " > best " + best + ": the final skill is the new best"
                : " <= best " + best + " (step " + st.bestStep + "): the best is kept");
    }

    /** "best (step N) vs final skill (origin): gain ... : the final skill is the new best" with the honest gate. */
    private String pairedDetail(PairedGate.Comparison c) {
        return "best (step " + st.bestStep + ") vs final skill" + (st.currentOrigin == null ? "" : " (" + st.currentOrigin + ")") + ":"
                + PairedGate.detail(c) + (c.accepted() ? ": the best is truly better, kept" : ": the final skill is the new best");
    }

    private PairedGate.Comparison finalComparison; // the honest final selection's, for summary.json; null without
    private boolean bestAtFinal; // the final selection made the final skill the best: its rows are the final selection's

    Map<String, Object> run(int globalStep, long loopStart) {
        TrainSettings s = run.settings();
        // the commit's disk flush overlaps the final selection's first calls; any later write of these files waits for it
        CompletableFuture<Void> committed = CompletableFuture.runAsync(() -> commitBest(globalStep), ThreadPerTask.named("skillopt-commit"));
        Double finalSelHard = null, finalSelSoft = null;
        Rollout.Outcome baseTest = null, bestTest = null, finalTest = null;
        if (s.evalTest()) {
            try {
                boolean same = SkillDocument.hash(st.currentSkill).equals(SkillDocument.hash(st.bestSkill));
                if (same && !promotedBefore()) {
                    finalSelHard = st.bestScore;
                } else if (same) {
                    // an earlier session's final selection promoted it and was killed: its rows are read back, no call
                    SelectionEval.Score sc = stages.selection().fresh(st.currentSkill, finalSelectionDir());
                    finalSelHard = sc.hard();
                    finalSelSoft = sc.soft();
                } else {
                    long t0 = System.nanoTime();
                    // the honest gate keeps the final skill unless the best one is truly better (docs/training.md)
                    PairedGate.Comparison paired = s.useGate() && s.gateTest().paired() ? new PairedGate(s, stages.selection(), stages.gate())
                            .compare(st.bestSkill, paths.root().resolve("final_selection_eval_best"), st.currentSkill, finalSelectionDir()) : null;
                    SelectionEval.Score sc = paired != null ? paired.reference()
                            : stages.selection().fresh(st.currentSkill, finalSelectionDir(), testAhead());
                    finalSelHard = sc.hard();
                    finalSelSoft = sc.soft();
                    double g = stages.gate().score(sc.hard(), sc.soft(), st.currentSkill);
                    finalComparison = paired;
                    Reflect.join(committed);
                    // a skill taken without a gate can become the best only here: say so, or the summary reads wrong
                    run.emit(new io.skillopt4j.run.TrainingEvent.StageFinished(globalStep, "final_selection",
                            java.time.Duration.ofNanos(System.nanoTime() - t0), paired == null ? finalSelectionDetail(g) : pairedDetail(paired)));
                    if (paired != null ? !paired.accepted() : g > st.bestScore) {
                        bestAtFinal = true;
                        st.bestSkill = st.currentSkill;
                        st.bestScore = g;
                        st.bestStep = globalStep;
                        st.bestOrigin = st.currentOrigin;
                        commitBest(globalStep);
                    }
                }
            } catch (RuntimeException e) {
                finalSelHard = null;
                finalSelSoft = null;
            }
            Reflect.join(committed);
            baseTest = test(st.initialSkill, "test_eval_baseline");
            bestTest = bestTest(st.bestSkill);
            try {
                if (SkillDocument.hash(st.currentSkill).equals(SkillDocument.hash(st.bestSkill))) {
                    finalTest = bestTest;
                    // only summary.json there then; rows left by an earlier finish (--extend-epochs) go aside
                    run.writer().awaitPending(paths.root().resolve("test_eval_final"));
                    io.skillopt4j.run.RolloutStamp.retireOthers(paths.root().resolve("test_eval_final"), st.bestSkill);
                    run.writer().json(paths.root().resolve("test_eval_final").resolve("summary.json"),
                            Rollout.buckets(benchmark.taskTypes(), bestTest.results()));
                } else {
                    finalTest = test(st.currentSkill, "test_eval_final");
                }
            } catch (RuntimeException e) {
                finalTest = null;
            }
        }
        Reflect.join(committed);
        double[] base = st.selCache.get(SkillDocument.hash(st.initialSkill));
        Map<String, Object> m = Json.obj("version", "skillopt-0.1.0", "config", Redactor.redact(config),
                "baseline_selection_hard", base == null ? null : base[0], "best_selection_hard", st.bestScore,
                "final_selection_hard", finalSelHard, "final_selection_soft", finalSelSoft, "best_step", st.bestStep,
                "current_origin", st.currentOrigin, "best_origin", st.bestOrigin);
        putCounts(m);
        double baseHard = baseTest == null ? 0 : baseTest.hard();
        Json.put(m, "baseline_test_hard", baseTest == null ? null : baseTest.hard(),
                "baseline_test_soft", baseTest == null ? null : baseTest.soft(),
                "test_hard", bestTest == null ? null : bestTest.hard(),
                "test_soft", bestTest == null ? null : bestTest.soft(),
                "final_test_hard", finalTest == null ? null : finalTest.hard(),
                "final_test_soft", finalTest == null ? null : finalTest.soft(),
                "test_delta_hard", bestTest == null ? null : bestTest.hard() - baseHard,
                "final_test_delta_hard", finalTest == null ? null : finalTest.hard() - baseHard,
                "total_wall_time_s", StepRecord.round((run.clock().millis() - loopStart) / 1000.0, 1),
                "token_summary", tokenSummary());
        // a SkillOpt4J addition named *_usage: it varies with the provider's transient faults, run_diff.py ignores it
        Map<String, Map<String, Long>> session = run.usage().faultSummary();
        m.put("fault_usage", io.skillopt4j.run.FaultCounts.plus(io.skillopt4j.run.FaultCounts.stored(paths.root()), session));
        io.skillopt4j.run.FaultCounts.append(run.writer(), "finished", globalStep, session);
        run.writer().awaitPending(); // summary.json marks the run complete: every evaluation's files are there first
        Map<String, Object> intervals = intervals(baseTest, bestTest, finalTest);
        run.writer().json(paths.root().resolve("score_intervals.json"), intervals); // a SkillOpt4J addition
        if (s.gateTest().paired() || s.gateTest().repeats() > 1) { // SkillOpt's summary keys stay as they are by default
            m.put("score_intervals", intervals);
            if (finalComparison != null) m.put("final_selection_gate", finalComparison.fields());
        }
        run.writer().json(paths.summary(), m);
        return m;
    }

    private Path finalSelectionDir() { return paths.root().resolve("final_selection_eval"); }

    /** Whether a final selection already promoted the final skill: a resumed session reports its scores again. */
    private boolean promotedBefore() {
        return io.skillopt4j.run.RolloutStamp.hash(st.currentSkill).equals(io.skillopt4j.run.RolloutStamp.stored(finalSelectionDir()));
    }

    /** The summary's scores with their 95 % intervals, test gains as paired intervals; null where there is no score. */
    private Map<String, Object> intervals(Rollout.Outcome baseTest, Rollout.Outcome bestTest, Rollout.Outcome finalTest) {
        return Json.obj("confidence", 0.95,
                "baseline_selection_hard", hard(ScoreIntervals.rowsIn(paths.root().resolve("selection_eval_baseline"))),
                "best_selection_hard", hard(ScoreIntervals.rowsIn(bestSelectionDir())),
                "final_selection_hard", hard(ScoreIntervals.rowsIn(finalSelectionDir())),
                "baseline_test_hard", baseTest == null ? null : hard(baseTest.results()),
                "test_hard", bestTest == null ? null : hard(bestTest.results()),
                "final_test_hard", finalTest == null ? null : hard(finalTest.results()),
                "test_delta_hard", bestTest == null || baseTest == null ? null
                        : ScoreIntervals.json(ScoreIntervals.gain(bestTest.results(), baseTest.results())),
                "final_test_delta_hard", finalTest == null || baseTest == null ? null
                        : ScoreIntervals.json(ScoreIntervals.gain(finalTest.results(), baseTest.results())));
    }

    private static Map<String, Object> hard(List<RolloutResult> rows) {
        return ScoreIntervals.json(ScoreIntervals.hard(rows));
    }

    /** Where the best skill's selection rows are: by its origin (the final selection's when it made it the best). */
    private Path bestSelectionDir() {
        Path root = paths.root();
        String origin = st.bestOrigin == null ? "" : st.bestOrigin;
        if (bestAtFinal) return finalSelectionDir();
        if (origin.startsWith("step_")) return root.resolve("steps").resolve(origin).resolve("selection_eval");
        if (origin.startsWith("slow_update_epoch_")) return root.resolve("slow_update").resolve("epoch_" + origin.substring("slow_update_epoch_".length())).resolve("selection_eval");
        return root.resolve("selection_eval_baseline");
    }

    /** Immutable. The best skill's test evaluation, started as soon as the final selection's first rows decided it. */
    private record Ahead(String skill, CompletableFuture<Rollout.Outcome> outcome) {}

    private volatile Ahead ahead; // set at most once, from a rollout thread of the final selection

    /** Pipelined: starts the best skill's test evaluation once the final selection's rows decide it; or null. */
    private GateAhead testAhead() {
        Path dir = paths.root().resolve(TEST);
        if (!run.pipelined() || run.capped() || Files.exists(dir) || run.settings().gateTest().repeats() > 1) return null; // bounds of one pass
        return new GateAhead(stages.selection().size(), stages.gate(), st.currentSkill, st.bestSkill, st.bestScore,
                skill -> ahead = new Ahead(skill, CompletableFuture.supplyAsync(() -> testHere(skill), ThreadPerTask.named("skillopt-test-ahead"))));
    }

    /** The test evaluation, counted in the run's meter and priced under "test" whatever thread runs it. */
    private Rollout.Outcome testHere(String skill) {
        return io.skillopt4j.backend.UsageMeter.heldIn(null, () -> io.skillopt4j.backend.CostLedger.inPhase("test", () -> test(skill, TEST)));
    }

    /** The best skill's test evaluation: the one started ahead if of {@code skill}, or a new one. */
    private Rollout.Outcome bestTest(String skill) {
        Ahead a = ahead;
        ahead = null;
        if (a != null && a.skill().equals(skill)) return Reflect.join(a.outcome());
        if (a != null) { // the final selection failed after its first rows decided: its folder would not exist in sequence
            a.outcome().handle((x, e) -> null).join();
            run.writer().awaitPendingQuietly(); // its files are still being written
            AtomicFiles.deleteTreeQuietly(paths.root().resolve(TEST));
        }
        return test(skill, TEST);
    }

    private static final String TEST = "test_eval";

    private Rollout.Outcome test(String skill, String dirName) {
        Path dir = paths.root().resolve(dirName);
        Rollout.Outcome o = stages.rollout().run(data.buildEvalBatch(run.settings().testEnvNum(), "valid_unseen", run.settings().seed()), skill, dir, false);
        run.writer().json(dir.resolve("summary.json"), Rollout.buckets(benchmark.taskTypes(), o.results()));
        return o;
    }

    private void putCounts(Map<String, Object> m) {
        List<Map<String, Object>> h = st.history;
        m.put("total_steps", h.size());
        putActions(m, "total_", h);
        Map<Integer, List<Map<String, Object>>> byEpoch = h.stream().collect(java.util.stream.Collectors.groupingBy(
                r -> ((Number) r.get("epoch")).intValue(), java.util.TreeMap::new, java.util.stream.Collectors.toList()));
        List<Map<String, Object>> stats = new ArrayList<>();
        byEpoch.forEach((epoch, recs) -> {
            Map<String, Object> e = Json.obj("epoch", epoch,
                    "steps", recs.stream().map(r -> r.get("step")).toList());
            putActions(e, "", recs);
            Map<String, Object> lastRec = recs.get(recs.size() - 1);
            Json.put(e, "best_score_at_epoch_end", lastRec.get("best_score"),
                    "current_score_at_epoch_end", lastRec.get("current_score"));
            stats.add(e);
        });
        m.put("epoch_stats", stats);
    }

    /** The accepts, rejects and skips among {@code recs}, as {@code <prefix>accepts} and so on. */
    private static void putActions(Map<String, Object> m, String prefix, List<Map<String, Object>> recs) {
        m.put(prefix + "accepts", recs.stream().filter(r -> String.valueOf(r.get("action")).contains("accept")).count());
        m.put(prefix + "rejects", recs.stream().filter(r -> "reject".equals(r.get("action"))).count());
        m.put(prefix + "skips", recs.stream().filter(r -> "skip_no_patches".equals(r.get("action"))).count());
    }

    /** Upstream's token_summary, "_total" first: the kept calls, earlier sessions' included. */
    private Map<String, Object> tokenSummary() {
        Map<String, Object> raw = run.usage().keptStageSummary();
        Map<String, Object> out = Json.obj("_total", raw.get("_total"));
        out.putAll(raw); // "_total" keeps its first place
        return out;
    }
}
