package io.skillopt4j.train;

import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.internal.Decimals;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.TrainingEvent;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/** Not thread-safe; used by the training thread. One training step (upstream §2.6), rollouts to history record. */
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
        StepContext c = new StepContext(epoch, stepInEpoch, step, plan, meta, run.writer().paths().step(step),
                new StepRecord(step, epoch, stepInEpoch), run.clock().millis(), run.usage().byStage());
        run.emit(new TrainingEvent.StepStarted(step, epoch, stepInEpoch, run.totalSteps()));
        StepPatches.Rolled rolled = rollAndReflect(c);
        try {
            return afterRollouts(c, rolled);
        } finally {
            for (Rollout.Outcome o : rolled.outcomes()) o.traces().awaitWrittenQuietly(); // a step that stops leaves its rollout files complete
        }
    }

    /** Rolls out each batch and starts its reflect, which sees what it would in sequence (pipelined or not). */
    private StepPatches.Rolled rollAndReflect(StepContext c) {
        TrainSettings s = run.settings();
        Clock clock = run.clock();
        long rollMs = 0;
        List<Rollout.Outcome> outs = new ArrayList<>();
        rollouts = outs;
        List<CompletableFuture<StepPatches.Reflected>> reflects = new ArrayList<>();
        List<CompletableFuture<List<Map<String, Object>>>> failureParts = new ArrayList<>();
        String bufferContext = st.stepBuffer.format();
        stages.optimizer().takeAnalystCounts(); // this step's analyst calls are counted from here
        try {
            for (int a = 0; a < s.accumulation(); a++) {
                BatchSpec batch = c.batch(a, s.accumulation());
                Path rolloutDir = batchDir(c.stepDir(), a).resolve("rollout");
                long t = clock.millis();
                Rollout.Outcome out = a == 0 ? ahead.take(rolloutDir, st.currentSkill) : null;
                if (out == null) out = stages.rollout().run(batch, st.currentSkill, rolloutDir, true);
                rollMs += clock.millis() - t;
                stage(c.step(), "rollout", clock.millis() - t, "hard=" + Decimals.fixed(out.hard(), 3) + " n=" + out.results().size());
                checkStop();
                Reflect.Input in = new Reflect.Input(out.results(), st.currentSkill, rolloutDir.resolve("predictions"),
                        batchDir(c.stepDir(), a).resolve("patches"), batch.seed(), bufferContext, c.meta(), out.traces());
                long t1 = clock.millis();
                Reflect.Pending pending = stages.reflect().start(in);
                CompletableFuture<StepPatches.Reflected> f = pending.all().thenApply(r -> new StepPatches.Reflected(r, clock.millis() - t1));
                outs.add(out);
                reflects.add(f);
                failureParts.add(pending.failures());
                if (!run.pipelined()) Reflect.join(f);
            }
        } catch (RuntimeException | Error e) { // Error: a budget or errored halt
            for (CompletableFuture<StepPatches.Reflected> f : reflects) f.handle((x, err) -> null).join(); // no writes after we return
            for (Rollout.Outcome o : outs) o.traces().awaitWrittenQuietly();
            throw e;
        }
        return new StepPatches.Rolled(outs, reflects, failureParts, rollMs);
    }

    /** The step from its reflect results on: patches, aggregate, select, update, gate, record. */
    private Map<String, Object> afterRollouts(StepContext c, StepPatches.Rolled rolled) {
        TrainSettings s = run.settings();
        CompletableFuture<StepPatches.EarlyMerge> early = mergeFailuresEarly(c, rolled);
        StepPatches patches;
        try {
            patches = StepPatches.collect(c, rolled, s, (name, ms, detail) -> {
                stage(c.step(), name, ms, detail);
                checkStop();
            });
            stages.optimizer().haltIfAnalystsErrored(run.maxErrored());
        } catch (RuntimeException | Error e) {
            if (early != null) early.handle((x, err) -> null).join(); // no calls or writes after we return
            throw e;
        }
        if (patches.isEmpty()) return skip(c, "skip_no_patches", patches.raws());
        Map<String, Object> merged = timed(c, "aggregate", () -> aggregate(c, patches, early),
                m -> Aggregate.items(m, s.updateMode().payloadKey()).size() + " " + s.updateMode().label());
        checkStop();
        EditSelection sel = timed(c, "select", () -> EditSelection.run(c, merged, s, stages, st, run.writer()),
                e -> e.rankedItems().size() + " selected, budget " + e.budget());
        checkStop();
        Update.Result up = timed(c, "update", () -> update(c, merged, sel.ranked()),
                u -> u.candidate() == null ? "no candidate" : SkillDocument.length(u.candidate()) + " chars");
        String candidate = up.candidate();
        if (candidate == null) return skip(c, "skip_no_rewrite", patches.raws());
        checkStop();
        GateStep gate = timed(c, "evaluate", () -> evaluate(c, candidate, patches.raws()), GateStep::detail);
        return record(c, patches, sel, gate);
    }

    /**
     * Pipelined: starts the failure group's merge once its analysts are done, the very call {@link #aggregate} makes.
     * Null under a dollar cap (a resumed run would pay for it again) or when nothing is started.
     */
    private CompletableFuture<StepPatches.EarlyMerge> mergeFailuresEarly(StepContext c, StepPatches.Rolled rolled) {
        if (!run.pipelined() || run.capped()) return null;
        String skill = st.currentSkill, key = run.settings().updateMode().payloadKey();
        return CompletableFuture.allOf(rolled.failureParts().toArray(CompletableFuture[]::new)).thenCompose(v -> {
            if (stages.optimizer().analystErrors() > 0 || stopRequested.getAsBoolean()) return CompletableFuture.completedFuture(null);
            List<Map<String, Object>> failures = StepPatches.failures(rolled.failureParts(), key);
            return stages.aggregate().failureGroup(skill, failures, c.meta()).thenApply(m -> new StepPatches.EarlyMerge(failures, m));
        });
    }

    /** The merge of the step's patches into {@code merged_patch.json}, reusing {@code early}'s when it merged these. */
    private Map<String, Object> aggregate(StepContext c, StepPatches p, CompletableFuture<StepPatches.EarlyMerge> early) {
        StepPatches.EarlyMerge e = early == null ? null : Reflect.join(early);
        CompletableFuture<Map<String, Object>> failMerged = e != null && e.failures().equals(p.failures())
                ? CompletableFuture.completedFuture(e.merged()) : stages.aggregate().failureGroup(st.currentSkill, p.failures(), c.meta());
        Map<String, Object> merged = stages.aggregate().run(st.currentSkill, failMerged, p.successes(), c.meta());
        run.writer().artefact(c.stepDir().resolve("merged_patch.json"), merged);
        c.rec().put("n_edits_merged", Aggregate.items(merged, run.settings().updateMode().payloadKey()).size());
        return merged;
    }

    /** The candidate skill from the ranked edits (null: skip_no_rewrite, whose record names the unchanged skill, as upstream). */
    private Update.Result update(StepContext c, Map<String, Object> merged, Map<String, Object> ranked) {
        Update.Result up = stages.update().run(st.currentSkill, merged, ranked, st.stepBuffer.format(), c.stepDir());
        String written = up.candidate() == null ? st.currentSkill : up.candidate();
        c.rec().putAll("candidate_hash", SkillDocument.hash(written), "candidate_skill_len", SkillDocument.length(written));
        if (up.changeSummary() != null) c.rec().put("rewrite_change_summary", up.changeSummary());
        if (up.applySummary() != null) c.rec().put("edit_apply_summary", up.applySummary());
        return up;
    }

    /** The gate on {@code candidate}, then the appendix flush and the next step's rollout. */
    private GateStep evaluate(StepContext c, String candidate, List<Map<String, Object>> raws) {
        GateStep g = GateStep.run(c, candidate, run.settings(), stages, st, gateAhead(c, candidate));
        run.emit(new TrainingEvent.GateDecision(c.step(), g.action(), g.candidateScore(), st.currentScore,
                st.bestScore));
        flushThenPrefetch(c, raws);
        return g;
    }

    /** The step-buffer entry, the trajectory digest and the record's closing fields, then the commit. */
    private Map<String, Object> record(StepContext c, StepPatches p, EditSelection sel, GateStep g) {
        RunWriter w = run.writer();
        StepRecord rec = c.rec();
        w.awaitArtefacts(c.stepDir()); // the digest reads this step's analyst patch files back, which may still be queued
        Map<String, Object> digest = StepBuffer.entry(c.step(), g.action(), p.all(), c.stepDir(), sel.ranked(),
                run.settings().updateMode(), g.scoreBefore(), g.candidateScore());
        st.stepBuffer.add(digest);
        w.artefact(c.stepDir().resolve("trajectory_digest.json"), digest);
        Map<String, Object> tokens = StepRecord.tokens(c.usageBefore(), run.usage().byStage());
        rec.put("tokens", tokens);
        run.emit(new TrainingEvent.TokensUsed(c.step(), tokens));
        closing(c, true);
        RunWriter.Batch files = w.batch().text(w.paths().skill(c.step()), st.currentSkill).text(w.paths().bestSkill(), st.bestSkill);
        return persistStep(rec.asMap(), c.step(), c.stepDir(), files);
    }

    /** Runs one named stage, timed into the record as {@code <name>_s} and into a stage event. */
    private <T> T timed(StepContext c, String name, java.util.function.Supplier<T> body, java.util.function.Function<T, String> detail) {
        long t = run.clock().millis();
        T r = body.get();
        long ms = run.clock().millis() - t;
        c.rec().time(name + "_s", ms);
        stage(c.step(), name, ms, detail.apply(r));
        return r;
    }

    /** Commits the step in one flush, after its rollout files are on disk. */
    private Map<String, Object> persistStep(Map<String, Object> record, int step, Path stepDir, RunWriter.Batch files) {
        for (Rollout.Outcome o : rollouts) o.traces().awaitWritten();
        List<Map<String, Object>> fb = stages.optimizer().drainFallbacks();
        if (!fb.isEmpty()) {
            fb.sort((a, b) -> (a.get("stage") + "\u0000" + a.get("what")).compareTo(b.get("stage") + "\u0000" + b.get("what")));
            run.writer().artefact(stepDir.resolve("fallbacks.json"), fb);
        }
        st.history.add(record);
        files.json(run.writer().paths().history(), st.history);
        st.persist(files, run.writer().paths(), step).json(stepDir.resolve("step_record.json"), record).commit();
        run.emit(new TrainingEvent.StepFinished(step, run.totalSteps(), String.valueOf(record.get("action")), record));
        return record;
    }

    /** Starts the next step's first rollout, if any, once the gate decided its skill (see {@link #nextEpoch}). */
    private void prefetchNext(StepContext c, String skill) {
        if (stopRequested.getAsBoolean()) return;
        if (!lastOfEpoch(c)) prefetch(c.plan().get((c.stepInEpoch() + 1) * run.settings().accumulation()), c.step() + 1, skill);
        else if (nextEpochFirst != null) prefetch(nextEpochFirst, c.step() + 1, nextEpochSkill.apply(skill));
    }

    private boolean lastOfEpoch(StepContext c) { return (c.stepInEpoch() + 1) * run.settings().accumulation() >= c.plan().size(); }

    /** Lets the epoch's last step start the next epoch's first rollout; {@code skillAtEnd} null = not known. */
    void nextEpoch(BatchSpec first, java.util.function.UnaryOperator<String> skillAtEnd) {
        nextEpochFirst = skillAtEnd == null || run.capped() ? null : first;
        nextEpochSkill = skillAtEnd;
    }

    /** Pipelined: starts the next step's rollout once the first rows decide the gate; null if unknowable or capped. */
    private GateAhead gateAhead(StepContext c, String candidate) {
        TrainSettings s = run.settings();
        if (!run.pipelined() || run.capped() || s.skillAware() || lastOfEpoch(c) && nextEpochFirst == null
                || s.useGate() && (s.gateTest().paired() || s.gateTest().repeats() > 1)) return null;
        if (!s.useGate()) {
            prefetchNext(c, candidate);
            return null;
        }
        return new GateAhead(stages.selection().size(), stages.gate(), candidate, st.currentSkill, st.currentScore,
                next -> prefetchNext(c, next));
    }

    /** Pipelined: starts step {@code step}'s first rollout with {@code skill} ahead of the step. */
    void prefetch(BatchSpec batch, int step, String skill) {
        if (!run.pipelined()) return;
        Path stepDir = run.writer().paths().step(step);
        ahead.start(batch, skill, stepDir, batchDir(stepDir, 0).resolve("rollout"));
    }

    /** Batch {@code a}'s folder in a step: {@code batch_<a>} with gradient accumulation, the step folder itself without. */
    private Path batchDir(Path stepDir, int a) { return run.settings().accumulation() > 1 ? stepDir.resolve("batch_" + a) : stepDir; }

    /** Drops a rollout started ahead that no step will take (the run stops). */
    void dropPrefetch() { ahead.drop(); }

    /** Keeps a rollout started ahead that no step will take, rows and counts (a budget stop). */
    void keepPrefetch() { ahead.keep(); }

    private Map<String, Object> skip(StepContext c, String action, List<Map<String, Object>> raws) {
        flushThenPrefetch(c, raws);
        run.emit(new TrainingEvent.TokensUsed(c.step(), StepRecord.tokens(c.usageBefore(), run.usage().byStage())));
        c.rec().put("action", action);
        closing(c, false);
        RunWriter w = run.writer();
        return persistStep(c.rec().asMap(), c.step(), c.stepDir(), w.batch().text(w.paths().skill(c.step()), st.currentSkill));
    }

    /** The record's closing scores, skill length and wall time; {@code origins}: both origins after best_step. */
    private void closing(StepContext c, boolean origins) {
        c.rec().putAll("current_score", st.currentScore, "best_score", st.bestScore, "best_step", st.bestStep);
        if (origins) c.rec().putAll("current_origin", st.currentOrigin, "best_origin", st.bestOrigin);
        c.rec().putAll("skill_len", SkillDocument.length(st.currentSkill),
                "wall_time_s", StepRecord.round((run.clock().millis() - c.startMillis()) / 1000.0, 1));
    }

    /** After the gate (or a skip): the skill-aware appendix flush, then the next step's first rollout with its skill. */
    private void flushThenPrefetch(StepContext c, List<Map<String, Object>> raws) {
        if (run.settings().skillAware()) stages.appendix().flush(st.currentSkill, raws).ifPresent(f -> {
            st.currentSkill = f.skill();
            c.rec().putAll("n_execution_lapse_notes", f.stepNotes().size(), "n_appendix_notes_added", f.added(),
                    "n_appendix_notes_total", f.total());
            if (f.consolidated() != null) c.rec().put("n_appendix_notes_consolidated", f.consolidated());
            run.writer().artefact(c.stepDir().resolve("appendix_notes.json"), Appendix.file(f));
        });
        prefetchNext(c, st.currentSkill);
    }

    private void stage(int step, String name, long millis, String detail) {
        run.emit(new TrainingEvent.StageFinished(step, name, Duration.ofMillis(millis), detail));
    }
}
