package io.skillopt4j.train;

import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.TrainingEvent;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Not thread-safe; used by the training thread. One training step (upstream §2.6): rollout and reflect per
 * accumulation batch, then aggregate, select, update, gate, step-buffer entry and persistence, with the
 * skip_no_patches / skip_no_rewrite branches. Returns the history record.
 */
final class StepPipeline {
    private final RunScope run;
    private final RunStages stages;
    private final RunState st;
    private final BooleanSupplier stopRequested;
    private final RolloutAhead ahead;
    private List<Rollout.Outcome> rollouts = List.of(); // the running step's, whose files persistStep waits for
    private BatchSpec nextEpochFirst; // see nextEpoch
    private java.util.function.UnaryOperator<String> nextEpochSkill;

    StepPipeline(RunScope run, RunStages stages, RunState state, BooleanSupplier stopRequested) {
        this.run = run;
        this.stages = stages;
        this.st = state;
        this.stopRequested = stopRequested;
        this.ahead = new RolloutAhead(stages.rollout(), run.usage());
    }

    private void checkStop() { if (stopRequested.getAsBoolean()) throw new StopRequested(); }

    Map<String, Object> run(int epoch, int stepInEpoch, int step, List<BatchSpec> plan, String meta) {
        TrainSettings s = run.settings();
        RunWriter w = run.writer();
        Clock clock = run.clock();
        long t0 = clock.millis();
        Map<String, UsageMeter.Counts> before = run.usage().byStage();
        StepRecord rec = new StepRecord(step, epoch, stepInEpoch);
        emit(new TrainingEvent.StepStarted(step, epoch, stepInEpoch, run.totalSteps()));
        Path stepDir = w.paths().step(step);
        long rollMs = 0;
        // Pipelined: a batch's analysts start as soon as its own rollouts are done, while the next accumulation
        // batch rolls out. Each reflect sees exactly what it would in sequence (its batch's results, the step's
        // skill, buffer and meta) and results are collected in batch order, so the run folder is the same.
        List<Rollout.Outcome> outs = new ArrayList<>();
        rollouts = outs;
        List<CompletableFuture<Reflected>> reflects = new ArrayList<>();
        String bufferContext = st.stepBuffer.format();
        stages.optimizer().takeAnalystCounts(); // this step's analyst calls are counted from here
        try {
            for (int a = 0; a < s.accumulation(); a++) {
                BatchSpec batch = plan.get(stepInEpoch * s.accumulation() + a);
                Path batchDir = batchDir(stepDir, a);
                long t = clock.millis();
                Rollout.Outcome out = a == 0 ? ahead.take(batchDir.resolve("rollout"), st.currentSkill) : null;
                if (out == null) out = stages.rollout().run(batch, st.currentSkill, batchDir.resolve("rollout"), true);
                rollMs += clock.millis() - t;
                stage(step, "rollout", clock.millis() - t, "hard=" + fmt(out.hard()) + " n=" + out.results().size());
                checkStop();
                Reflect.Input in = new Reflect.Input(out.results(), st.currentSkill, batchDir.resolve("rollout").resolve("predictions"),
                        batchDir.resolve("patches"), batch.seed(), bufferContext, meta, out.traces());
                CompletableFuture<Reflected> f = CompletableFuture.supplyAsync(() -> {
                    long t1 = clock.millis();
                    List<Map<String, Object>> r = stages.reflect().run(in);
                    return new Reflected(r, clock.millis() - t1);
                }, a == s.accumulation() - 1 ? Runnable::run : REFLECT); // the last batch's reflect overlaps nothing
                outs.add(out);
                reflects.add(f);
                if (!run.pipelined()) Reflect.join(f);
            }
        } catch (RuntimeException | Error e) { // Error: a budget or errored halt
            for (CompletableFuture<Reflected> f : reflects) f.handle((x, err) -> null).join(); // no writes after we return
            for (Rollout.Outcome o : outs) o.traces().awaitWrittenQuietly();
            throw e;
        }
        try {
            return afterRollouts(epoch, stepInEpoch, step, plan, meta, rec, t0, before, outs, reflects, rollMs);
        } finally {
            for (Rollout.Outcome o : outs) o.traces().awaitWrittenQuietly(); // a step that stops leaves its rollout files complete
        }
    }

    /** The step from its reflect results on: aggregate, select, update, gate, persistence. */
    private Map<String, Object> afterRollouts(int epoch, int stepInEpoch, int step, List<BatchSpec> plan, String meta, StepRecord rec,
                                              long t0, Map<String, UsageMeter.Counts> before, List<Rollout.Outcome> outs,
                                              List<CompletableFuture<Reflected>> reflects, long rollMs) {
        TrainSettings s = run.settings();
        RunWriter w = run.writer();
        Clock clock = run.clock();
        Path stepDir = w.paths().step(step);
        String key = s.updateMode().payloadKey();
        List<RolloutResult> all = new ArrayList<>();
        List<Map<String, Object>> raws = new ArrayList<>(), failures = new ArrayList<>(), successes = new ArrayList<>();
        List<Map<String, Object>> batches = new ArrayList<>();
        long reflMs = 0;
        double hardSum = 0, softSum = 0;
        for (int a = 0; a < s.accumulation(); a++) {
            BatchSpec batch = plan.get(stepInEpoch * s.accumulation() + a);
            Rollout.Outcome out = outs.get(a);
            Reflected rf = Reflect.join(reflects.get(a));
            List<Map<String, Object>> r = rf.patches();
            reflMs += rf.millis();
            int nf = 0, ns = 0;
            for (Map<String, Object> raw : r) {
                Map<String, Object> inner = Aggregate.normalise(raw, key);
                if (inner == null) continue;
                if ("success".equals(raw.get("source_type"))) { successes.add(inner); ns++; } else { failures.add(inner); nf++; }
            }
            stage(step, "reflect", rf.millis(), nf + " failure + " + ns + " success patches");
            checkStop();
            raws.addAll(r);
            all.addAll(out.results());
            hardSum += out.hard() * out.results().size();
            softSum += out.soft() * out.results().size();
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("batch_idx", a); // index inside the accumulation group, as upstream
            b.put("batch_seed", batch.seed());
            b.put("n_envs", out.results().size());
            b.put("hard", out.hard());
            b.put("soft", out.soft());
            b.put("n_failure_patches", nf);
            b.put("n_success_patches", ns);
            batches.add(b);
        }
        stages.optimizer().haltIfAnalystsErrored(run.maxErrored());
        int n = all.size();
        rec.time("rollout_s", rollMs);
        rec.time("reflect_s", reflMs);
        rec.put("rollout_hard", StepRecord.round(n == 0 ? 0 : hardSum / n, 6));
        rec.put("rollout_soft", StepRecord.round(n == 0 ? 0 : softSum / n, 6));
        rec.put("rollout_n", n);
        rec.put("accumulation_batches", batches);
        rec.put("n_patches", failures.size() + successes.size());
        rec.put("n_failure_patches", failures.size());
        rec.put("n_success_patches", successes.size());
        if (failures.isEmpty() && successes.isEmpty()) return skip(rec, "skip_no_patches", raws, stepDir, t0, before, () -> prefetchNext(stepInEpoch, step, plan));

        long t = clock.millis();
                Map<String, Object> merged = stages.aggregate().run(st.currentSkill, failures, successes, meta);
        w.artefact(stepDir.resolve("merged_patch.json"), merged);
        int nMerged = Aggregate.items(merged, key).size();
        rec.put("n_edits_merged", nMerged);
        rec.time("aggregate_s", clock.millis() - t);
        stage(step, "aggregate", clock.millis() - t, nMerged + " " + s.updateMode().label());
        checkStop();

        t = clock.millis();
        Map<String, Object> ranked;
        Integer budget = null;
        Map<String, Object> decision = null;
        String lrMode = s.lrControlMode();
        if (s.updateMode() == UpdateMode.FULL_REWRITE) {
            ranked = merged;
            lrMode = "none";
        } else {
            if (lrMode.equals("autonomous")) {
                decision = stages.select().decideBudget(st.currentSkill, merged, (double) rec.get("rollout_hard"),
                        (double) rec.get("rollout_soft"), n, st.stepBuffer.format(), meta);
                w.artefact(stepDir.resolve("lr_decision.json"), decision);
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("step", step);
                line.put("epoch", epoch);
                line.putAll(decision);
                w.jsonLine(w.paths().lrHistory(), line);
                budget = (Integer) decision.get("learning_rate");
            } else {
                budget = st.schedule.next();
            }
            ranked = stages.select().rank(st.currentSkill, merged, budget, meta);
        }
        w.artefact(stepDir.resolve("ranked_edits.json"), ranked);
        List<Object> rankedItems = Aggregate.items(ranked, key);
        rec.put("n_edits_ranked", rankedItems.size());
        rec.put("edit_budget", budget);
        rec.put("lr_control_mode", lrMode);
        if (decision != null) rec.put("lr_decision", decision);
        List<Object> support = new ArrayList<>();
        // as upstream: each dict item's support_count as the reply gave it (0 when absent), non-dict items skipped
        for (Object o : rankedItems) if (o instanceof Map<?, ?> m) support.add(m.containsKey("support_count") ? m.get("support_count") : 0);
        rec.put("support_counts", support);
        rec.time("select_s", clock.millis() - t);
        stage(step, "select", clock.millis() - t, rankedItems.size() + " selected, budget " + budget);
        checkStop();

        t = clock.millis();
        String bufferText = st.stepBuffer.format();
        Update.Result up = stages.update().run(st.currentSkill, merged, ranked, bufferText, stepDir);
        String candidate = up.candidate();
        String written = candidate == null ? st.currentSkill : candidate; // skip_no_rewrite: the unchanged skill, as upstream
        rec.put("candidate_hash", SkillDocument.hash(written));
        rec.put("candidate_skill_len", SkillDocument.length(written));
        if (up.changeSummary() != null) rec.put("rewrite_change_summary", up.changeSummary());
        if (up.applySummary() != null) rec.put("edit_apply_summary", up.applySummary());
        rec.time("update_s", clock.millis() - t);
        stage(step, "update", clock.millis() - t, candidate == null ? "no candidate" : SkillDocument.length(candidate) + " chars");
        if (candidate == null) return skip(rec, "skip_no_rewrite", raws, stepDir, t0, before, () -> prefetchNext(stepInEpoch, step, plan));
        checkStop();

        t = clock.millis();
        PairedGate.Comparison paired = PairedGate.atStep(s, stages, candidate, st.currentSkill, stepDir, step);
        SelectionEval.Score sc = paired != null ? paired.candidate()
                : stages.selection().score(candidate, stepDir.resolve("selection_eval"), gateAhead(candidate, stepInEpoch, step, plan));
        rec.put("selection_hard", sc.hard());
        rec.put("selection_soft", sc.soft());
        double cand = stages.gate().score(sc.hard(), sc.soft(), candidate);
        double scoreBefore = st.currentScore;
        String action;
        if (s.useGate()) {
            Gate.Decision d = paired != null ? Gate.decidePaired(paired.accepted(), cand, st.bestScore, st.currentSkill.equals(st.bestSkill))
                    : Gate.decide(cand, st.currentScore, st.bestScore);
            action = d.action();
            if (d.accepted()) {
                st.currentSkill = candidate;
                st.currentScore = cand;
                st.currentOrigin = RunPaths.stepName(step);
                if (action.equals("accept_new_best")) {
                    st.bestSkill = candidate;
                    st.bestScore = cand;
                    st.bestStep = step;
                    st.bestOrigin = st.currentOrigin;
                }
            }
        } else {
            action = "force_accept";
            st.currentSkill = candidate;
            st.currentScore = cand;
            st.currentOrigin = RunPaths.stepName(step);
            if (cand > st.bestScore) {
                st.bestSkill = candidate;
                st.bestScore = cand;
                st.bestStep = step;
                st.bestOrigin = st.currentOrigin;
            }
        }
        rec.put("gate_metric", s.gateMetric());
        rec.put("candidate_gate_score", cand);
        rec.put("action", action);
        if (paired != null) paired.fields().forEach(rec::put); // new fields, only with the honest gate
        emit(new TrainingEvent.GateDecision(step, action, cand, st.currentScore, st.bestScore));
        if (s.skillAware()) flush(rec, raws, stepDir);
        prefetchNext(stepInEpoch, step, plan);
        rec.time("evaluate_s", clock.millis() - t);
        stage(step, "evaluate", clock.millis() - t, action + (sc.cached() ? " (cached)" : "") + (paired == null ? "" : PairedGate.detail(paired)));

        w.awaitArtefacts(stepDir); // the digest reads this step's analyst patch files back, which may still be queued
        Map<String, Object> digest = StepBuffer.entry(step, action, all, stepDir, ranked, s.updateMode(), scoreBefore, cand);
        st.stepBuffer.add(digest);
        w.artefact(stepDir.resolve("trajectory_digest.json"), digest);
        rec.tokens(before, run.usage().byStage());
        emit(new TrainingEvent.TokensUsed(step, rec.tokens()));
        rec.put("current_score", st.currentScore);
        rec.put("best_score", st.bestScore);
        rec.put("best_step", st.bestStep);
        rec.put("current_origin", st.currentOrigin);
        rec.put("best_origin", st.bestOrigin);
        rec.put("skill_len", SkillDocument.length(st.currentSkill));
        rec.put("wall_time_s", StepRecord.round((clock.millis() - t0) / 1000.0, 1));
        RunWriter.Batch files = w.batch().text(w.paths().skill(step), st.currentSkill).text(w.paths().bestSkill(), st.bestSkill);
                return persistStep(rec.asMap(), step, stepDir, files);
    }

    /**
     * Commits the step: fallbacks, then {@code files} (skills), history, runtime state and step record, one flush, after
     * the step's rollout files (written behind the analysts) are on disk.
     */
    private Map<String, Object> persistStep(Map<String, Object> record, int step, Path stepDir, RunWriter.Batch files) {
        for (Rollout.Outcome o : rollouts) o.traces().awaitWritten();
        List<Map<String, Object>> fb = stages.optimizer().drainFallbacks();
        if (!fb.isEmpty()) {
            fb.sort((a, b) -> (a.get("stage") + "\u0000" + a.get("what")).compareTo(b.get("stage") + "\u0000" + b.get("what")));
            run.writer().artefact(stepDir.resolve("fallbacks.json"), fb);
        }
        st.history.add(record);
        files.json(run.writer().paths().history(), st.history);
        st.persist(files, run.writer().paths(), step);
        files.json(stepDir.resolve("step_record.json"), record);
        files.commit();
        emit(new TrainingEvent.StepFinished(step, run.totalSteps(), String.valueOf(record.get("action")), record));
        return record;
    }

    /**
     * Starts the next step's first rollout now, if there is one (in the next epoch: see {@link #nextEpoch}): the gate has
     * decided the skill it uses and its batch is planned, so its calls overlap this step's persistence and the next step's set-up.
     */
    private void prefetchNext(int stepInEpoch, int step, List<BatchSpec> plan) { prefetchNext(stepInEpoch, step, plan, st.currentSkill); }

    private void prefetchNext(int stepInEpoch, int step, List<BatchSpec> plan, String skill) {
        if (stopRequested.getAsBoolean()) return;
        if (!lastOfEpoch(stepInEpoch, plan)) prefetch(plan.get((stepInEpoch + 1) * run.settings().accumulation()), step + 1, skill);
        else if (nextEpochFirst != null) prefetch(nextEpochFirst, step + 1, nextEpochSkill.apply(skill));
    }

    private boolean lastOfEpoch(int stepInEpoch, List<BatchSpec> plan) { return (stepInEpoch + 1) * run.settings().accumulation() >= plan.size(); }

    /**
     * Lets the epoch's last step start the next epoch's first rollout, of {@code first}, with the skill {@code skillAtEnd}
     * makes of the step's: set when the epoch's end changes the skill only so (no slow update, or epoch 1's placeholder);
     * null = not known, nothing is started across the epoch boundary.
     */
    void nextEpoch(BatchSpec first, java.util.function.UnaryOperator<String> skillAtEnd) {
        nextEpochFirst = skillAtEnd == null || run.capped() ? null : first;
        nextEpochSkill = skillAtEnd;
    }

    /**
     * With {@code pipeline_stages}: the observer that starts the next step's rollout as soon as the first selection rows
     * decide the gate ({@link GateAhead}); without the gate the candidate is known to be next at once. Null when there
     * is no next step in this epoch, the appendix flush after the gate may still change the skill, or a dollar cap is
     * set (calls made ahead could then move the budget stop into this step, whose merge and ranking calls a resumed
     * run would pay for again), or the gate is the honest one or averages repeats (its bounds hold for one pass). */
    private GateAhead gateAhead(String candidate, int stepInEpoch, int step, List<BatchSpec> plan) {
        TrainSettings s = run.settings();
        if (!run.pipelined() || run.capped() || s.skillAware() || lastOfEpoch(stepInEpoch, plan) && nextEpochFirst == null
                || s.useGate() && (s.gateTest().paired() || s.gateTest().repeats() > 1)) return null;
        if (!s.useGate()) {
            prefetchNext(stepInEpoch, step, plan, candidate);
            return null;
        }
        return new GateAhead(stages.selection().size(), stages.gate(), candidate, st.currentSkill, st.currentScore,
                next -> prefetchNext(stepInEpoch, step, plan, next));
    }

    /**
     * With {@code train.pipeline_stages}: starts step {@code step}'s first rollout, of {@code batch} with the current
     * skill, ahead of the step (see {@link RolloutAhead}; the trainer overlaps step 1's with the baseline evaluation).
     */
    void prefetch(BatchSpec batch, int step) { prefetch(batch, step, st.currentSkill); }

    private void prefetch(BatchSpec batch, int step, String skill) {
        if (!run.pipelined()) return;
        Path stepDir = run.writer().paths().step(step);
        ahead.start(batch, skill, stepDir, batchDir(stepDir, 0).resolve("rollout"));
    }

    /** Batch {@code a}'s folder in a step: {@code batch_<a>} with gradient accumulation, the step folder itself without. */
    private Path batchDir(Path stepDir, int a) { return run.settings().accumulation() > 1 ? stepDir.resolve("batch_" + a) : stepDir; }

    /** Drops a rollout started ahead that no step will take (the run stops; see {@link RolloutAhead}). */
    void dropPrefetch() { ahead.drop(); }

    /** Keeps a rollout started ahead that no step will take, rows and counts (a budget stop; see {@link RolloutAhead}). */
    void keepPrefetch() { ahead.keep(); }

    /** Immutable. One batch's raw patches (minibatch order) and how long its reflect took. */
    private record Reflected(List<Map<String, Object>> patches, long millis) {}

    /** One thread per batch's reflect: it only waits on the analyst pool, so it must not take a pool slot. */
    private static final Executor REFLECT = ThreadPerTask.named("skillopt-reflect");

    private Map<String, Object> skip(StepRecord rec, String action, List<Map<String, Object>> raws, Path stepDir, long t0,
                                     Map<String, UsageMeter.Counts> before, Runnable prefetchNext) {
        if (run.settings().skillAware()) flush(rec, raws, stepDir);
        prefetchNext.run();
        StepRecord tmp = new StepRecord(0, 0, 0);
        tmp.tokens(before, run.usage().byStage());
        emit(new TrainingEvent.TokensUsed((int) rec.get("step"), tmp.tokens()));
        rec.put("action", action);
        rec.put("current_score", st.currentScore);
        rec.put("best_score", st.bestScore);
        rec.put("best_step", st.bestStep);
        rec.put("skill_len", SkillDocument.length(st.currentSkill));
        rec.put("wall_time_s", StepRecord.round((run.clock().millis() - t0) / 1000.0, 1));
        int step = (int) rec.get("step");
        return persistStep(rec.asMap(), step, stepDir, run.writer().batch().text(run.writer().paths().skill(step), st.currentSkill));
    }

    private void flush(StepRecord rec, List<Map<String, Object>> raws, Path stepDir) {
        stages.appendix().flush(st.currentSkill, raws).ifPresent(f -> {
            st.currentSkill = f.skill();
            rec.put("n_execution_lapse_notes", f.stepNotes().size());
            rec.put("n_appendix_notes_added", f.added());
            rec.put("n_appendix_notes_total", f.total());
            if (f.consolidated() != null) rec.put("n_appendix_notes_consolidated", f.consolidated());
            run.writer().artefact(stepDir.resolve("appendix_notes.json"), Appendix.file(f));
        });
    }

    private void stage(int step, String name, long millis, String detail) {
        emit(new TrainingEvent.StageFinished(step, name, Duration.ofMillis(millis), detail));
    }

    private void emit(TrainingEvent e) { run.emit(e); }

    private static String fmt(double d) { return io.skillopt4j.internal.Decimals.fixed(d, 3); }
}
