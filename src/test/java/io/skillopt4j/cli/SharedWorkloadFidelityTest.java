package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The shared SearchQA workload (../shared/bench, beside the project as on CI) trained through the CLI against the
 * shared fake LLM server, compared with Python SkillOpt's own run folder of the same workload: every step's
 * decision, every skill text byte for byte, and run_diff.py's verdict on the whole folder.
 */
class SharedWorkloadFidelityTest {
    /**
     * .skillopt.lock: the run folder's owner lock, empty at rest (run.RunLock); cost_ledger.jsonl: the priced call ledger
     * behind budget.max_usd and run.cost() (docs/cost.md).
     */
    static final List<String> DELIBERATE_EXTRAS = List.of(".skillopt.lock", "cost_ledger.jsonl", "score_intervals.json", "token_usage.jsonl");

    @TempDir Path tmp;

    /** ../shared beside the project (as on CI); skips the calling test with one line when it is not there. */
    static Path shared() {
        Path s = Path.of("").toAbsolutePath().resolve("../shared").normalize();
        Assumptions.assumeTrue(Files.isDirectory(s.resolve("bench")), "needs the shared reference material beside the project (" + s + "/bench)");
        Assumptions.assumeTrue(python3(), "needs python3 on PATH (the shared fake LLM server)");
        return s;
    }

    private static boolean python3() {
        try {
            return new ProcessBuilder("python3", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void patchModeMatchesSkillOptsRunFolderDecisionForDecisionAndSkillForSkill() throws Exception {
        Path bench = shared().resolve("bench");
        Path ref = bench.resolve("reference-run-patch");
        Path data = tmp.resolve("searchqa-data");
        exec(List.of("python3", bench.resolve("make_data.py").toString(), data.toString()));
        Path out = tmp.resolve("run");
        Path portFile = tmp.resolve("port");
        Process server = new ProcessBuilder("python3", bench.resolve("fake_llm_server.py").toString(), "--port", "0",
                "--port-file", portFile.toString()).redirectErrorStream(true).redirectOutput(tmp.resolve("server.log").toFile()).start();
        try {
            String port = awaitPort(portFile, server);
            List<String> args = new ArrayList<>(List.of("train", "--config",
                    shared().resolve("reference/upstream-configs/searchqa/default.yaml").toString(), "--cfg-options"));
            // the flags searchqa-workload.sh runs with (SkillOpt's run of reference-run-patch used the same), one worker each
            args.addAll(List.of("model.backend=openai_compatible", "model.optimizer=fake-optimizer", "model.target=fake-target",
                    "model.openai_compatible_base_url=http://127.0.0.1:" + port + "/v1", "model.openai_compatible_api_key=dummy",
                    "env.name=searchqa", "env.skill_init=" + bench.resolve("initial_skill.md"), "env.split_mode=split_dir",
                    "env.split_dir=" + data, "env.workers=1", "env.max_turns=1", "env.max_completion_tokens=16384",
                    "env.exec_timeout=120", "env.out_root=" + out, "train.num_epochs=2", "train.batch_size=5", "train.train_size=0",
                    "gradient.minibatch_size=2", "gradient.merge_batch_size=2", "gradient.analyst_workers=1",
                    "evaluation.sel_env_num=10", "evaluation.test_env_num=10", "optimizer.slow_update_samples=6"));
            CliRun r = CliRun.run(args.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(actions(ref), actions(out), "every step takes SkillOpt's decision");
        for (String f : skillFiles(ref)) {
            assertTrue(Files.isRegularFile(out.resolve(f)), "missing " + f);
            assertEquals(Files.readString(ref.resolve(f)), Files.readString(out.resolve(f)), f + " differs from SkillOpt's");
        }
        // run_diff.py skips conversation.json; its evaluation record reaches the analysts' prompts, so it must be SkillOpt's
        List<String> conversations;
        try (var files = Files.walk(ref)) {
            conversations = files.filter(f -> f.getFileName().toString().equals("conversation.json")).map(f -> ref.relativize(f).toString()).toList();
        }
        assertFalse(conversations.isEmpty());
        for (String f : conversations) assertEquals(Files.readString(ref.resolve(f)), Files.readString(out.resolve(f)), f + " differs from SkillOpt's");
        String diff = exec(List.of("python3", bench.resolve("run_diff.py").toString(), ref.toString(), out.toString()));
        // Our additions to the run folder, each a deliberate deviation listed in docs/training.md; nothing else extra.
        List<String> extras = new ArrayList<>();
        try (var files = Files.walk(out)) {
            files.filter(Files::isRegularFile).map(f -> out.relativize(f).toString().replace('\\', '/'))
                    .filter(f -> !Files.exists(ref.resolve(f))).sorted().forEach(extras::add);
        }
        // and beside each results.jsonl the skill hash its rows belong to (run.RolloutStamp), never another file
        List<String> stamps = extras.stream().filter(f -> f.endsWith("/" + io.skillopt4j.run.RolloutStamp.FILE)).toList();
        List<String> resultDirs = new ArrayList<>();
        try (var files = Files.walk(out)) {
            files.filter(f -> f.getFileName().toString().equals("results.jsonl"))
                    .map(f -> out.relativize(f.getParent()).toString().replace('\\', '/') + "/" + io.skillopt4j.run.RolloutStamp.FILE)
                    .sorted().forEach(resultDirs::add);
        }
        assertEquals(resultDirs, stamps, "one skill stamp per rollout folder");
        List<String> others = extras.stream().filter(f -> !stamps.contains(f)).toList();
        assertEquals(DELIBERATE_EXTRAS, others, "files SkillOpt does not write");
        assertTrue(diff.strip().endsWith("reference files agree (" + extras.size() + " extra files in ours)") && diff.contains("95/95"), diff);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> actions(Path run) {
        List<Object> out = new ArrayList<>();
        for (Object o : (List<Object>) Json.read(run.resolve("history.json"))) out.add(((Map<String, Object>) o).get("action"));
        return out;
    }

    /** Every skill text of a run folder: skills/, best_skill.md and each candidate_skill.md. */
    private static List<String> skillFiles(Path run) throws IOException {
        try (Stream<Path> s = Files.walk(run)) {
            List<String> fs = s.filter(p -> p.getFileName().toString().endsWith(".md")).map(p -> run.relativize(p).toString()).sorted().toList();
            assertTrue(fs.contains("best_skill.md") && fs.contains("skills/skill_v0008.md") && fs.contains("slow_update/epoch_02/candidate_skill.md"), fs.toString());
            return fs;
        }
    }

    private static String awaitPort(Path portFile, Process server) throws Exception {
        for (int i = 0; i < 300; i++) {
            if (Files.isRegularFile(portFile) && Files.size(portFile) > 0) return Files.readString(portFile).strip();
            if (!server.isAlive()) fail("fake_llm_server.py exited with " + server.exitValue());
            Thread.sleep(50);
        }
        throw new AssertionError("fake_llm_server.py wrote no port within 15 s");
    }

    /** Runs a command to completion; returns its output; fails on a non-zero exit. */
    private static String exec(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
        assertEquals(0, p.exitValue(), cmd + ":\n" + text);
        return text;
    }
}
