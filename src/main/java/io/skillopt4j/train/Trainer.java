package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.BudgetExceeded;
import io.skillopt4j.ErroredHalt;
import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.RunConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Redactor;
import io.skillopt4j.run.FaultCounts;
import io.skillopt4j.run.RunLock;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunWriter;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** Immutable once built. The SkillOpt training loop; the same out_root resumes after the last completed step. */
public final class Trainer {
    private final RunConfig run;
    private final FlatConfig config;
    private final TrainSettings settings;
    private final ModelRoles roles;
    private final Benchmark benchmark;
    private final Path outRoot;
    private final TrainingListener listener;
    private final Clock clock;
    private final ExecutionEngine.Factory engine;

    private Trainer(Builder b) {
        this.run = Objects.requireNonNull(b.config, "config");
        this.config = run.flat(); // keys the typed view does not model (engine, switches, limits) and config.json
        this.settings = TrainSettings.from(run); // a bad value is a config error before any model call
        this.roles = Objects.requireNonNull(b.roles, "roles");
        this.benchmark = Objects.requireNonNull(b.benchmark, "benchmark");
        Path cfgRoot = run.env().outRoot();
        if (b.outRoot == null && cfgRoot.toString().isBlank()) throw new ConfigException("out_root is not set: pass outRoot(path) or set env.out_root");
        this.outRoot = (b.outRoot != null ? b.outRoot : cfgRoot).toAbsolutePath().normalize();
        this.listener = TrainingListener.all(b.listeners);
        this.clock = b.clock == null ? Clock.systemUTC() : b.clock;
        this.engine = b.engine != null ? b.engine : ExecutionEngine.named(Setting.string("engine_name").of(config));
        Rollout.maxErroredFraction(config); // a bad value is a config error before any model call
    }

    public static Builder builder() { return new Builder(); }

    public Path outRoot() { return outRoot; }

    /** Returns the cost ledger the run's calls are priced into (and its dollar cap, if any). */
    public io.skillopt4j.backend.CostLedger ledger() { return roles.ledger(); }

    /** Trains in the calling thread and returns the summary (or a stopped result, see {@link TrainingResult}). */
    public TrainingResult train() { return run(new AtomicBoolean(), listener); }

    /** Starts training on a background thread and returns a handle to follow, stop or await it. */
    public TrainingHandle trainAsync() {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<io.skillopt4j.run.TrainingProgress> progress = new AtomicReference<>(io.skillopt4j.run.TrainingProgress.none());
        TrainingListener tracking = TrainingListener.all(List.of(new TrainingListener() {
            @Override public void on(TrainingEvent e) { TrainingHandle.track(progress, e); }
        }, listener));
        CompletableFuture<TrainingResult> f = CompletableFuture.supplyAsync(() -> run(stop, tracking),
                r -> io.skillopt4j.internal.Daemons.start("skillopt-train", r));
        return new TrainingHandle(stop, f, progress, outRoot);
    }

    /** Transport retries, give-ups and fast fails of this run's calls go to {@code logs/transport.log}, not stderr. */
    private TrainingResult run(AtomicBoolean stop, TrainingListener l) {
        ThreadPerTask.Run threads = new ThreadPerTask.Run();
        try {
            return ThreadPerTask.in(threads, () -> io.skillopt4j.backend.TransportLog.during(outRoot.resolve("logs").resolve("transport.log"),
                    () -> runLogged(stop, l)));
        } catch (RuntimeException e) {
            throw io.skillopt4j.TrainingInterrupted.of(e, outRoot); // an interrupted thread: one line, not where it waited
        } finally {
            if (threads.wasInterrupted()) Thread.currentThread().interrupt(); // cleared for the waits that kept the folder whole
        }
    }

    /** Under the folder's lock, before any write: a conflicting config is refused, a complete run returned as it is. */
    private TrainingResult runLogged(AtomicBoolean stop, TrainingListener l) {
        TrainSettings s = settings;
        DataLoader data = benchmark.data();
        int trainSize = RunSetup.trainSize(s, data);
        int spe = s.stepsPerEpoch(trainSize);
        String initial = RunSetup.initialSkill(s.skillInit());
        Map<String, Object> cfgOut = RunSetup.derivedConfig(config, roles, outRoot, s, trainSize, spe);
        RunPaths paths = new RunPaths(outRoot);
        try (RunLock lock = RunLock.acquire(outRoot, "train")) {
            ResumeCheck.Outcome o = ResumeCheck.check(paths, Redactor.redact(cfgOut), initial, s.numEpochs() * spe,
                    Setting.bool("force_new").of(config), Setting.bool("extend_epochs").of(config), clock);
            if (o.complete()) {
                l.on(new TrainingEvent.RunFinished(outRoot, false, o.summary()));
                return new TrainingResult(o.summary(), outRoot, true);
            }
            lock.staleHolder().ifPresent(h -> folderNote(l, "took over the lock left by pid " + h.get("pid") + " (" + h.get("command")
                    + " since " + h.get("started") + ", no longer running)"));
            if (o.movedTo() != null) folderNote(l, "--force-new: moved the previous run to " + o.movedTo());
            // a kill mid-append leaves half a line; rows this session appends must not be glued to it
            if (o.existing()) for (Path f : AtomicFiles.repairTornLines(outRoot)) folderNote(l, "cut the torn last line of " + outRoot.relativize(f));
            // the run's two writer threads (rollout items, artefacts) are drained before the lock is released
            return io.skillopt4j.env.ItemWriter.runScoped(() -> run(stop, l, s, data, spe, initial, cfgOut, o.storedConfig()));
        }
    }

    private TrainingResult run(AtomicBoolean stop, TrainingListener l, TrainSettings s, DataLoader data, int spe, String initial,
                               Map<String, Object> cfgOut, byte[] priorConfig) {
        RunPaths paths = new RunPaths(outRoot);
        RunWriter w = new RunWriter(paths);
        w.writeBehind(io.skillopt4j.env.ItemWriter.sideThread()); // the run's second writer thread (runScoped, above)
        int total = s.numEpochs() * spe;
        w.json(paths.config(), Redactor.redact(cfgOut));
        data.writeGenerated(); // only now: a refused run leaves the folder as it was

        roles.ledger().attach(paths.root().resolve(RunPaths.COST_LEDGER));
        roles.usage().attachJournal(paths.root().resolve(io.skillopt4j.backend.UsageJournal.FILE)); // token_summary across sessions
        roles.ledger().phase("baseline");
        EditBudgetSchedule schedule = new EditBudgetSchedule(s.lrScheduler(), s.editBudget(), s.minEditBudget(), total);
        RunState st = new RunState(initial, schedule);
        RunScope run = new RunScope(s, w, clock, roles.usage(), l, total, Setting.bool("pipeline_stages").of(config), roles.ledger().cap() != null,
                Rollout.maxErroredFraction(config));
        int resumeFrom = Resume.restore(st, paths);
        w.text(paths.skill(0), initial);
        if (s.skillAware()) st.currentSkill = SkillDocument.injectEmptyAppendix(st.currentSkill);
        ExecutionEngine eng = engine.open(new ExecutionEngine.RunContext(config, outRoot, roles.usage(), roles.ledger()));
        ExecutorService pool = Executors.newFixedThreadPool(s.analystWorkers(), io.skillopt4j.internal.Daemons.numbered("skillopt-optimizer-"));
        Duration batchPoll = Rollout.batchPoll(config);
        // with the Batch API the evaluations are already off the critical path (and must not run as direct calls)
        BackgroundRollouts background = s.backgroundEval() && batchPoll == null
                ? new BackgroundRollouts(benchmark, benchmark.workers(), roles.usage(), eng.rolloutItems()) : null;
        StepPipeline pipeline = null;
        try {
            RunStages stages = stages(run, st, data, spe, eng, background, batchPoll, pool);
            pipeline = new StepPipeline(run, stages, st, stop::get);
            l.on(new TrainingEvent.RunStarted(outRoot, total, spe, s.numEpochs(), resumeFrom));
            List<BatchSpec> firstPlan = data.planTrainEpoch(1, spe, s.accumulation(), s.batchSize(), s.seed());
            ThreadPerTask.named("skillopt-prompts").execute(() -> stages.preloadPrompts(s));
            if (st.currentScore < 0) {
                // step 1 rolls out the initial skill whatever the baseline scores: both run at once (pipeline_stages)
                if (resumeFrom <= 1 && !firstPlan.isEmpty()) pipeline.prefetch(firstPlan.get(0), 1, st.currentSkill);
                baseline(run, stages, st, paths);
            }
            if (background != null && s.evalTest()) {
                // the initial skill's test score does not depend on training: roll it out while the optimizer works
                background.submit(data.buildEvalBatch(s.testEnvNum(), "valid_unseen", s.seed()), st.initialSkill,
                        paths.root().resolve("test_eval_baseline"), Integer.MAX_VALUE);
            }
            long loopStart = clock.millis();
            int global = 0;
            for (int epoch = 1; epoch <= s.numEpochs(); epoch++) {
                List<BatchSpec> plan = epoch == 1 ? firstPlan : data.planTrainEpoch(epoch, spe, s.accumulation(), s.batchSize(), s.seed());
                if (background != null) prefetchComparison(epoch, spe, s, paths, stages.longitudinal(), background);
                st.stepBuffer.clear();
                Resume.restoreStepBuffer(st.stepBuffer, paths, global + 1, Math.min(global + spe, resumeFrom - 1));
                String activeMeta = s.useMetaSkill() ? MetaSkill.stored(paths, epoch - 1) : "";
                List<BatchSpec> nextPlan = epoch < s.numEpochs() ? data.planTrainEpoch(epoch + 1, spe, s.accumulation(), s.batchSize(), s.seed()) : List.of();
                pipeline.nextEpoch(nextPlan.isEmpty() ? null : nextPlan.get(0), skillAtEpochEnd(epoch, s, paths));
                for (int si = 0; si < spe; si++) {
                    global++;
                    if (global < resumeFrom) continue;
                    if (stop.get()) throw new StopRequested();
                    roles.ledger().phase("train");
                    pipeline.run(epoch, si, global, plan, activeMeta);
                }
                if (global < resumeFrom - 1 && !epochDone(paths, epoch, s)) continue;
                if (stop.get()) throw new StopRequested();
                String[] actions = epochEnd(run, stages, st.currentSkill, epoch, global);
                stages.optimizer().drainFallbacks(); // epoch-stage fallbacks show as no_content actions in their result files
                l.on(new TrainingEvent.EpochFinished(epoch, actions[0], actions[1], st.currentScore, st.bestScore));
            }
            if (stop.get()) throw new StopRequested();
            roles.ledger().phase("test");
            Map<String, Object> summary = new Finish(run, stages, st, benchmark, data, paths, cfgOut).run(global, loopStart);
            l.on(new TrainingEvent.RunFinished(outRoot, false, summary));
            return new TrainingResult(summary, outRoot);
        } catch (StopRequested e) {
            if (!stop.get()) throw new io.skillopt4j.TrainingInterrupted(outRoot); // the thread's interrupt: see finally
            settle(pipeline);
            return stopped(run, st, null, resumeFrom, null);
        } catch (BudgetExceeded e) {
            if (pipeline != null) pipeline.keepPrefetch(); // its calls are paid for: the resumed step reuses its rows
            return stopped(run, st, e, resumeFrom, priorConfig);
        } catch (ErroredHalt e) {
            settle(pipeline);
            return stopped(run, st, e, resumeFrom, priorConfig);
        } finally {
            boolean interrupted = Thread.interrupted(); // cleared: the waits below keep the folder whole
            if (interrupted) ThreadPerTask.interrupted(); // stops the run's own threads and waits for them
            settle(pipeline);
            try { st.settle(); } catch (RuntimeException e) { /* a stopped run: the failure of a state write it no longer needs */ }
            if (background != null) background.close();
            pool.shutdownNow();
            if (interrupted) io.skillopt4j.internal.Daemons.awaitQuietly(pool); // an analyst call out would write after
            eng.close();
            roles.ledger().closeFile();
            roles.usage().detachJournal();
        }
    }

    /** What the end of {@code epoch} does to the skill if known ahead; null when a slow update may rewrite it. */
    private static java.util.function.UnaryOperator<String> skillAtEpochEnd(int epoch, TrainSettings s, RunPaths paths) {
        if (!s.useSlowUpdate()) return java.util.function.UnaryOperator.identity();
        return epoch == 1 && !Files.isRegularFile(paths.slowResult(1)) ? SkillDocument::injectSlowPlaceholder : null;
    }

    private static void folderNote(TrainingListener l, String note) { l.on(new TrainingEvent.StageFinished(0, "run_folder", Duration.ZERO, note)); }

    private static void settle(StepPipeline pipeline) { if (pipeline != null) pipeline.dropPrefetch(); }

    /** The resumable stop, saying why; a session that recorded no step puts back the config.json it found. */
    private TrainingResult stopped(RunScope run, RunState st, Throwable why, int resumeFrom, byte[] priorConfig) {
        int last = ((Number) st.lastCompletedStep()).intValue();
        if (priorConfig != null && last <= resumeFrom - 1) AtomicFiles.write(new RunPaths(outRoot).config(), priorConfig);
        Map<String, Object> m = Json.obj("stopped", true, "last_completed_step", st.lastCompletedStep());
        String reason = why instanceof ErroredHalt ? "errored" : why instanceof BudgetExceeded ? "budget" : null;
        if (reason != null) m.put("stop_reason", reason);
        if (why instanceof ErroredHalt e) m.put("errored_stage", e.stage());
        if (why != null) m.put("message", why.getMessage());
        // kept in faults.jsonl, so the resumed run's summary still counts them
        Map<String, Map<String, Long>> session = run.usage().faultSummary();
        m.put("fault_usage", FaultCounts.plus(FaultCounts.stored(outRoot), session));
        FaultCounts.append(run.writer(), reason == null ? "stopped" : reason, last, session);
        run.emit(new TrainingEvent.RunFinished(outRoot, true, m));
        return new TrainingResult(m, outRoot);
    }

    /** The slow update, then the meta skill, whose call runs beside it when pipelined; returns their actions. */
    private String[] epochEnd(RunScope run, RunStages stages, String epochLastSkill, int epoch, int global) {
        TrainSettings s = run.settings();
        CompletableFuture<Void> slowDone = new CompletableFuture<>();
        AtomicReference<CompletableFuture<String>> metaAhead = new AtomicReference<>();
        String slowAction = "", metaAction = "";
        Longitudinal.Pairs pairs = null;
        try {
            if (s.useSlowUpdate()) {
                roles.ledger().phase("slow_update");
                // under a dollar cap the two calls stay in order: a budget stop must not discard a paid meta-skill reply
                boolean ahead = run.pipelined() && s.useMetaSkill() && !run.capped();
                SlowUpdate.Result r = stages.slowUpdate().run(epoch, global, !ahead ? p -> {} : p -> metaAhead.set(
                        CompletableFuture.supplyAsync(() -> io.skillopt4j.backend.CostLedger.inPhase("meta_skill",
                                () -> stages.metaSkill().run(epoch, epochLastSkill, p, slowDone::join)), ThreadPerTask.named("skillopt-meta-skill"))));
                slowAction = r.action();
                pairs = r.pairs();
            }
            slowDone.complete(null);
        } catch (RuntimeException | Error e) { // Error: a budget or errored halt
            slowDone.completeExceptionally(e);
            if (metaAhead.get() != null) metaAhead.get().handle((x, y) -> null).join(); // no writes after we return
            throw e;
        }
        roles.ledger().phase("meta_skill");
        if (s.useMetaSkill()) metaAction = metaAhead.get() != null ? Reflect.join(metaAhead.get()) : stages.metaSkill().run(epoch, epochLastSkill, pairs);
        return new String[] {slowAction, metaAction};
    }

    /** Queues the previous epoch's last skill on the comparison tasks, known when the epoch starts (epoch 2 on). */
    private static void prefetchComparison(int epoch, int spe, TrainSettings s, RunPaths paths, Longitudinal longitudinal,
                                           BackgroundRollouts background) {
        if (epoch < 2 || !(s.useSlowUpdate() || s.useMetaSkill())) return;
        Path dir = s.useSlowUpdate() ? paths.slowUpdate(epoch) : paths.metaSkill(epoch);
        Path marker = s.useSlowUpdate() ? paths.slowResult(epoch) : paths.metaSkillResult(epoch);
        Path prevSkillFile = paths.skill((epoch - 1) * spe);
        if (Files.isRegularFile(marker) || !Files.isRegularFile(prevSkillFile)) return;
        longitudinal.prefetch(epoch, Trajectories.readFile(prevSkillFile), dir, background);
    }

    /** True when both enabled epoch-boundary markers of a resumed epoch exist. */
    private static boolean epochDone(RunPaths paths, int epoch, TrainSettings s) {
        return (!s.useSlowUpdate() || Files.isRegularFile(paths.slowResult(epoch)))
                && (!s.useMetaSkill() || Files.isRegularFile(paths.metaSkillResult(epoch)));
    }

    private RunStages stages(RunScope run, RunState st, DataLoader data, int spe, ExecutionEngine eng, BackgroundRollouts background,
                             Duration batchPoll, ExecutorService pool) {
        TrainSettings s = run.settings();
        RunWriter w = run.writer();
        Optimizer optimizer = new Optimizer(eng.optimizer(roles.optimizer()), background == null ? () -> {} : background::optimizerCall,
                s.jsonReask(), roles.usage());
        Prompts prompts = new Prompts(benchmark);
        Rollout rollout = new Rollout(benchmark, background, eng.rolloutItems(), batchPoll, run.maxErrored(), roles.usage(), w);
        Gate gate = new Gate(s);
        SelectionEval selection = new SelectionEval(s, data, rollout, st);
        Longitudinal longitudinal = new Longitudinal(s, data, rollout, w);
        return new RunStages(optimizer, rollout, new Reflect(s, optimizer, prompts, w, pool), new Aggregate(s, optimizer, pool),
                new Select(s, optimizer), new Update(s, optimizer, prompts, w), gate, new Appendix(s, optimizer), selection, longitudinal,
                new SlowUpdate(s, spe, optimizer, longitudinal, selection, gate, st, w, clock),
                new MetaSkill(optimizer, longitudinal, w, clock, spe));
    }

    private void baseline(RunScope run, RunStages stages, RunState st, RunPaths paths) {
        long t = clock.millis();
        SelectionEval.Score sc = stages.selection().fresh(st.initialSkill, paths.root().resolve("selection_eval_baseline"));
        double score = stages.gate().score(sc.hard(), sc.soft(), st.initialSkill);
        st.currentScore = score;
        st.bestScore = score;
        st.selCache.put(SkillDocument.hash(st.initialSkill), new double[] {sc.hard(), sc.soft()});
        st.currentOrigin = "initial_skill";
        st.bestOrigin = "initial_skill";
        st.baselineHard = sc.hard();
        st.baselineSoft = sc.soft();
        st.persistBehind(run.writer(), 0); // step 1's analysts need none of it: its disk flush overlaps their start
        run.emit(new TrainingEvent.StageFinished(0, "baseline", java.time.Duration.ofMillis(clock.millis() - t),
                "selection hard=" + io.skillopt4j.internal.Decimals.fixed(sc.hard(), 3)));
    }


    /** Not thread-safe; use once. Setter names equal the field names. */
    public static final class Builder {
        private RunConfig config;
        private ModelRoles roles;
        private Benchmark benchmark;
        private Path outRoot;
        private final List<TrainingListener> listeners = new ArrayList<>();
        private Clock clock;
        private ExecutionEngine.Factory engine;

        /** The typed, validated config ({@link RunConfig#from}). */
        public Builder config(RunConfig c) { this.config = c; return this; }
        public Builder roles(ModelRoles r) { this.roles = r; return this; }
        public Builder benchmark(Benchmark b) { this.benchmark = b; return this; }
        public Builder outRoot(Path p) { this.outRoot = p; return this; }
        public Builder listener(TrainingListener l) { if (l != null) listeners.add(l); return this; }
        public Builder clock(Clock c) { this.clock = c; return this; }
        /** Where the run's calls execute; default: the engine named by {@code engine.name} (local when unset). */
        public Builder engine(ExecutionEngine.Factory e) { this.engine = e; return this; }

        /** Builds the trainer; a missing config, roles or benchmark throws naming it. */
        public Trainer build() { return new Trainer(this); }
    }
}
