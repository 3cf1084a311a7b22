package io.skillopt4j.train;

import io.skillopt4j.RunFolderConflict;
import io.skillopt4j.RunFolderLocked;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RolloutStamp;
import io.skillopt4j.run.RunLock;
import io.skillopt4j.run.RunPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** A run folder belongs to one process and one configuration (issue 18): the lock, resume refusals, --force-new, --extend-epochs. */
class RunOwnershipTest {
    @TempDir Path tmp;

    private static Process java(Class<?> main, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Every file of the folder (relative path → SHA-256 of its bytes). */
    static Map<String, String> hashes(Path dir) throws Exception {
        Map<String, String> out = new java.util.TreeMap<>();
        try (var s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(), java.util.HexFormat.of().formatHex(io.skillopt4j.internal.Hashes.sha256(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    private static Map<String, Object> cfg(Path skill) {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, 2);
        c.put("use_slow_update", false);
        c.put("use_meta_skill", false);
        return c;
    }

    @Test
    void aSecondTrainerIsRefusedWhileTheFirstHoldsTheFolderAndAKilledHoldersLockIsTakenOver() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path out = tmp.resolve("run");
        Process holder = java(LockHolder.class, out.toString());
        try (BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            assertNotNull(line, "the holder process started");
            assertTrue(line.startsWith("locked "), line);
            RunFolderLocked e = assertThrows(RunFolderLocked.class, () -> TrainerEndToEndTest.trainer(cfg(skill), out, 2, null).train());
            assertEquals(holder.pid(), e.holderPid());
            assertTrue(e.getMessage().contains(out.toString()) && e.getMessage().contains("pid " + holder.pid()), e.getMessage());
            assertEquals(List.of(RunLock.FILE), List.copyOf(hashes(out).keySet()), "the refused trainer wrote nothing");

            holder.destroyForcibly(); // SIGKILL: no shutdown hook, the lock file keeps the dead holder's line
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(holder.pid(), ((Number) Json.parseObject(Files.readString(out.resolve(RunLock.FILE)).strip()).get("pid")).longValue(),
                "a stale lock file");
        // what a writer killed between its temp file and the rename leaves behind
        Path litter = out.resolve(".history.json.tmp" + holder.pid() + "-7");
        Path deep = out.resolve("steps/step_0001/.step_record.json.tmp" + holder.pid() + "-8");
        Files.createDirectories(deep.getParent());
        Files.writeString(litter, "[");
        Files.writeString(deep, "{");
        try (RunLock lock = RunLock.acquire(out, "test")) {
            assertEquals(holder.pid(), ((Number) lock.staleHolder().orElseThrow().get("pid")).longValue());
            assertFalse(Files.exists(litter) || Files.exists(deep), "the dead holder's temp files are swept on take-over");
        }
        // the kill again, this time reported by the trainer that takes the lock over
        Process again = java(LockHolder.class, out.toString());
        try (BufferedReader r = new BufferedReader(new InputStreamReader(again.getInputStream(), StandardCharsets.UTF_8))) {
            assertNotNull(r.readLine());
            again.destroyForcibly();
            assertTrue(again.waitFor(30, TimeUnit.SECONDS));
        }
        List<String> notes = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.skillopt4j.run.TrainingListener folder = new io.skillopt4j.run.TrainingListener() {
            @Override public void stageFinished(io.skillopt4j.run.TrainingEvent.StageFinished e) {
                if (e.stage().equals("run_folder")) notes.add(e.detail());
            }
        };
        TrainingResult done = TrainerEndToEndTest.trainer(cfg(skill), out, 2, folder).train();
        assertEquals(List.of("took over the lock left by pid " + again.pid()), notes.stream().map(n -> n.substring(0, n.indexOf(" ("))).toList());
        assertFalse(done.stopped());
        assertEquals("", Files.readString(out.resolve(RunLock.FILE)), "released: empty at rest");
    }

    @Test
    void twoTrainersInOneJvmCannotShareAFolder() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path out = tmp.resolve("run");
        java.util.concurrent.CountDownLatch inStep = new java.util.concurrent.CountDownLatch(1), release = new java.util.concurrent.CountDownLatch(1);
        io.skillopt4j.run.TrainingListener pause = new io.skillopt4j.run.TrainingListener() {
            @Override public void stepFinished(io.skillopt4j.run.TrainingEvent.StepFinished e) {
                inStep.countDown();
                try { release.await(); } catch (InterruptedException ex) { Thread.currentThread().interrupt(); }
            }
        };
        TrainingHandle first = TrainerEndToEndTest.trainer(cfg(skill), out, 2, pause).trainAsync();
        assertTrue(inStep.await(60, TimeUnit.SECONDS));
        RunFolderLocked e = assertThrows(RunFolderLocked.class, () -> TrainerEndToEndTest.trainer(cfg(skill), out, 2, null).train());
        assertEquals(ProcessHandle.current().pid(), e.holderPid());
        release.countDown();
        assertFalse(first.await().stopped(), "the first trainer's lock survived the second's attempt");
    }

    /** With slow update and meta skill, and an edit budget that does not depend on the number of steps. */
    private static Map<String, Object> extendable(Path skill) {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, 2);
        c.put("lr_scheduler", "constant");
        return c;
    }

    @Test
    void forceNewMovesTheOldRunAsideAndExtendEpochsContinuesAFinishedRun() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path out = tmp.resolve("run");
        Map<String, Object> c = extendable(skill);
        c.put("num_epochs", 1);
        TrainerEndToEndTest.trainer(c, out, 2, null).train();
        Path planned = tmp.resolve("planned");
        Map<String, Object> two = extendable(skill);
        two.put("num_epochs", 2);
        TrainerEndToEndTest.trainer(two, planned, 2, null).train();
        int spe = ((Number) ((Map<?, ?>) Json.read(out.resolve("config.json"))).get("steps_per_epoch")).intValue();
        Map<String, String> finished = hashes(out);

        Map<String, Object> more = extendable(skill);
        more.put("num_epochs", 2);
        RunFolderConflict refused = assertThrows(RunFolderConflict.class, () -> TrainerEndToEndTest.trainer(more, out, 2, null).train());
        assertTrue(refused.getMessage().contains("train.num_epochs 1 -> 2") && refused.getMessage().contains("--extend-epochs"), refused.getMessage());
        assertEquals(finished, hashes(out));

        more.put("extend_epochs", true);
        more.put("seed", 7);
        RunFolderConflict seed = assertThrows(RunFolderConflict.class, () -> TrainerEndToEndTest.trainer(more, out, 2, null).train());
        assertTrue(seed.getMessage().contains("train.seed 42 -> 7") && !seed.getMessage().contains("num_epochs"), seed.getMessage());
        more.put("seed", 42);
        TrainingResult extended = TrainerEndToEndTest.trainer(more, out, 2, null).train();
        assertFalse(extended.alreadyComplete());
        assertEquals(2 * spe, ((List<?>) Json.read(out.resolve("history.json"))).size());
        // a constant edit budget does not depend on the planned total: the extended run is the two-epoch run
        assertEquals(TrainerResumeTest.timeless(planned), TrainerResumeTest.timeless(out));
        Map<?, ?> want = (Map<?, ?>) Json.read(planned.resolve("summary.json")), got = (Map<?, ?>) Json.read(out.resolve("summary.json"));
        for (String k : List.of("test_hard", "final_test_hard", "baseline_test_hard", "best_step")) assertEquals(want.get(k), got.get(k), k);
        assertFalse(((Map<?, ?>) Json.read(out.resolve("config.json"))).containsKey("extend_epochs"), "a command switch, not config");
        assertEquals(Files.exists(planned.resolve("test_eval_final/results.jsonl")), Files.exists(out.resolve("test_eval_final/results.jsonl")),
                "test_eval_final holds rows only when the final skill is not the best one, as in the planned run");
        if (Files.exists(out.resolve("test_eval_final/results.jsonl"))) {
            assertEquals(RolloutStamp.hash(Files.readString(new RunPaths(out).skill(2 * spe))), RolloutStamp.stored(out.resolve("test_eval_final")),
                    "the final skill's rows, not those of the one-epoch run's final skill");
        }
        String best = Files.readString(out.resolve("best_skill.md"));
        assertEquals(RolloutStamp.hash(best), RolloutStamp.stored(out.resolve("test_eval")), "the test rows are the new best skill's");
        assertTrue(TrainerEndToEndTest.trainer(more, out, 2, null).train().alreadyComplete());

        Map<String, String> extendedFiles = hashes(out);
        Map<String, Object> other = cfg(skill);
        other.put("batch_size", 3);
        other.put("force_new", true);
        TrainingResult fresh = TrainerEndToEndTest.trainer(other, out, 2, null).train();
        assertFalse(fresh.stopped() || fresh.alreadyComplete());
        List<Path> aside;
        try (var s = Files.list(tmp)) { aside = s.filter(p -> p.getFileName().toString().startsWith("run.replaced-")).toList(); }
        assertEquals(1, aside.size(), "the old run moved to one sibling");
        Map<String, String> moved = hashes(aside.get(0));
        extendedFiles.remove(RunLock.FILE);
        assertEquals(extendedFiles, moved, "moved as it was");
        assertEquals(3, ((Number) ((Map<?, ?>) Json.read(new RunPaths(out).config())).get("batch_size")).intValue());
    }

    @Test
    void anEvaluationOwnsItsFolderAndNeverScoresOneSkillWithAnothersRows() throws Exception {
        Path weak = TrainerEndToEndTest.initialSkill(tmp), strong = tmp.resolve("strong.md");
        StringBuilder rules = new StringBuilder("# Skill\n");
        for (String k : TestBench.KEYWORDS) rules.append("RULE:").append(k).append('\n');
        Files.writeString(strong, rules.toString());
        io.skillopt4j.config.FlatConfig cfg = io.skillopt4j.config.FlatConfig.of(cfg(weak));
        java.util.function.BiFunction<Path, Path, Evaluator> eval = (skill, out) ->
                new Evaluator(cfg, new TestBench(12, 6, 6, 2, new io.skillopt4j.backend.UsageMeter()), skill, "valid_unseen", out);
        Path shared = tmp.resolve("eval"), fresh = tmp.resolve("fresh");
        assertEquals(0.0, ((Number) eval.apply(weak, shared).run().get("hard")).doubleValue());
        double again = ((Number) eval.apply(strong, shared).run().get("hard")).doubleValue();
        assertEquals(((Number) eval.apply(strong, fresh).run().get("hard")).doubleValue(), again);
        assertEquals(1.0, again);
        assertTrue(Files.isRegularFile(shared.resolve("results." + RolloutStamp.hash(Files.readString(weak)).substring(0, 16) + ".jsonl")),
                "the other skill's rows are moved aside, not lost");
        try (RunLock held = RunLock.acquire(shared, "test")) {
            RunFolderLocked e = assertThrows(RunFolderLocked.class, () -> eval.apply(strong, shared).run());
            assertEquals(ProcessHandle.current().pid(), e.holderPid());
        }
    }
}
