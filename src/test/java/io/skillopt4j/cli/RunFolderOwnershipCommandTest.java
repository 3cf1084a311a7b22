package io.skillopt4j.cli;

import io.skillopt4j.internal.Hashes;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunLock;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Issue 18's run-folder defects through the CLI: a conflicting resume, a re-run of a finished run, a second owner and
 * an eval of another skill into the same out_root. Each of these changed or misreported a good run before.
 */
class RunFolderOwnershipCommandTest {
    @TempDir Path tmp;

    private Path config(SimServer sim, Path out) throws Exception {
        return HouseYaml.at(sim.url()).write(tmp, out);
    }

    /** Every file of the folder (relative path → SHA-256 of its bytes). */
    static Map<String, String> hashes(Path dir) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(), HexFormat.of().formatHex(Hashes.sha256(Files.readAllBytes(f))));
            }
        }
        return out;
    }

    @Test
    void aGoodRunIsNeverRewrittenByAConflictingOrRepeatedCommand() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(java.time.Duration.ZERO).start()) {
            Path good = tmp.resolve("good");
            Path cfg = config(sim, good);
            CliRun first = CliRun.run("train", "--config", cfg.toString());
            assertEquals(0, first.code(), first.err());
            Map<String, String> before = hashes(good);
            assertTrue(before.containsKey("_generated_splits/house-rules_seed42/split_manifest.json"), "a run that starts writes its splits");

            CliRun seed = CliRun.run("train", "--config", cfg.toString(), "--out_root", good.toString(), "--seed", "3");
            assertEquals(2, seed.code(), seed.out() + seed.err());
            assertEquals(1, seed.err().lines().count(), seed.err());
            assertTrue(seed.err().contains("train.seed 42 -> 3") && seed.err().contains(good.toString()), seed.err());
            assertEquals(before, hashes(good), "a refused resume writes nothing");

            CliRun batch = CliRun.run("train", "--config", cfg.toString(), "--cfg-options", "train.batch_size=8");
            assertEquals(2, batch.code(), batch.out() + batch.err());
            assertTrue(batch.err().contains("train.batch_size 5 -> 8"), batch.err());
            assertEquals(before, hashes(good));

            // other data: the refused run's splits (_generated_splits/house-rules_seed7) are not written either
            CliRun data = CliRun.run("train", "--config", cfg.toString(), "--cfg-options", "env.house_rules_seed=7");
            assertEquals(2, data.code(), data.out() + data.err());
            assertTrue(data.err().contains("env.house_rules_seed"), data.err());
            assertEquals(before, hashes(good), "a refused run generates no splits into the folder");

            CliRun again = CliRun.run("train", "--config", cfg.toString(), "--analyst_workers", "1");
            assertEquals(0, again.code(), again.err());
            assertTrue(again.out().contains("already complete"), again.out());
            assertEquals(before, hashes(good), "re-running a finished run changes no byte");

            try (RunLock held = RunLock.acquire(good, "test")) {
                Map<String, String> locked = hashes(good);
                CliRun second = CliRun.run("train", "--config", cfg.toString());
                assertEquals(2, second.code(), second.out() + second.err());
                assertEquals(1, second.err().lines().count(), second.err());
                assertTrue(second.err().contains(good.toString()) && second.err().contains("pid " + ProcessHandle.current().pid()), second.err());
                assertEquals(locked, hashes(good));
            }
            Path fresh = tmp.resolve("fresh");
            try (RunLock held = RunLock.acquire(fresh, "test")) {
                CliRun blocked = CliRun.run("train", "--config", cfg.toString(), "--out_root", fresh.toString());
                assertEquals(2, blocked.code(), blocked.out() + blocked.err());
                assertEquals(List.of(RunLock.FILE), List.copyOf(hashes(fresh).keySet()), "a run refused by the lock writes nothing, not even its splits");
            }
        }
    }

    /**
     * The benchmarks with a runtime check (a Python with openpyxl, the SWE-bench harness, the ALFWorld bridge) run it
     * in a temp folder and write their {@code _<name>_runtime} scratch with the first rollout: a run refused by the
     * lock leaves its folder with nothing but the lock file, as for the splits above.
     */
    @Test
    void aRunRefusedByTheLockWritesNoRuntimeScratchForTheBenchmarksWithARuntimeCheck() throws Exception {
        Path fakePython = tmp.resolve("fake-python");
        Files.writeString(fakePython, "#!/bin/sh\nexit 0\n"); // answers `-c "import openpyxl"`: the check passes
        assertTrue(fakePython.toFile().setExecutable(true));
        Map<String, Map<String, Object>> envs = Map.of(
                "spreadsheetbench", Map.of("env.split_dir", io.skillopt4j.env.EnvFixtures.resource("spreadsheetbench"),
                        "env.python_executable", fakePython),
                "swebench", Map.of("env.split_dir", io.skillopt4j.env.EnvFixtures.resource("swebench"),
                        "env.swebench_harness", "python3 " + io.skillopt4j.env.EnvFixtures.resource("fake_swebench_harness.py"),
                        "env.swebench_check_docker", false),
                "alfworld", Map.of("env.split_dir", io.skillopt4j.env.EnvFixtures.resource("alfworld"),
                        "env.alfworld_data", io.skillopt4j.env.EnvFixtures.resource("alfworld_data"),
                        "env.alfworld_bridge", "python3 " + io.skillopt4j.env.EnvFixtures.resource("fake_alfworld_bridge.py")));
        for (var env : envs.entrySet()) {
            Path dir = Files.createDirectories(tmp.resolve(env.getKey()));
            Path out = dir.resolve("run");
            HouseYaml yaml = HouseYaml.at("http://127.0.0.1:9/v1").put("env.name", env.getKey()).put("env.split_mode", "split_dir");
            env.getValue().forEach(yaml::put);
            Path cfg = yaml.write(dir, out);
            try (RunLock held = RunLock.acquire(out, "test")) {
                CliRun refused = CliRun.run("train", "--config", cfg.toString());
                assertEquals(2, refused.code(), env.getKey() + ": " + refused.out() + refused.err());
                assertTrue(refused.err().contains(out.toString()), refused.err());
                assertEquals(List.of(RunLock.FILE), List.copyOf(hashes(out).keySet()), env.getKey() + ": a refused run writes no runtime scratch");
            }
        }
    }

    @Test
    void aDamagedConfigJsonInTheRunFolderIsExit2WithOneLineAndChangesNothing() throws Exception {
        Path run = tmp.resolve("damaged");
        Files.createDirectories(run);
        Files.writeString(run.resolve("config.json"), "{not json");
        Path cfg = HouseYaml.at("http://127.0.0.1:9/v1").write(tmp, run);
        Map<String, String> before = hashes(run);
        CliRun r = CliRun.run("train", "--config", cfg.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(run.resolve("config.json").toString()) && r.err().contains("--force-new"), r.err());
        // the damaged file is left for the user to repair, and nothing is added but the (empty) lock file, which is
        // never unlinked (RunLock): the benchmark's generated splits are written only once the folder is checked
        Map<String, String> after = hashes(run);
        assertEquals("", Files.readString(run.resolve(RunLock.FILE)));
        after.remove(RunLock.FILE);
        assertEquals(before, after);
    }

    @Test
    void evaluatingAnotherSkillIntoTheSameOutRootDoesNotReuseTheFirstSkillsResults() throws Exception {
        try (SimServer sim = SimServer.builder().seed(7).latency(java.time.Duration.ZERO).start()) {
            Path run = tmp.resolve("run");
            Path cfg = config(sim, run);
            assertEquals(0, CliRun.run("train", "--config", cfg.toString()).code());
            Path shared = tmp.resolve("eval-shared"), fresh = tmp.resolve("eval-fresh");
            for (Path skill : List.of(run.resolve("skills/skill_v0000.md"), run.resolve("best_skill.md"))) {
                CliRun r = CliRun.run("eval", "--config", cfg.toString(), "--skill", skill.toString(), "--split", "valid_unseen",
                        "--out_root", shared.toString());
                assertEquals(0, r.code(), r.err());
            }
            CliRun r = CliRun.run("eval", "--config", cfg.toString(), "--skill", run.resolve("best_skill.md").toString(),
                    "--split", "valid_unseen", "--out_root", fresh.toString());
            assertEquals(0, r.code(), r.err());
            Map<?, ?> a = (Map<?, ?>) Json.read(shared.resolve("eval_summary.json")), b = (Map<?, ?>) Json.read(fresh.resolve("eval_summary.json"));
            assertNotEquals(Files.readString(run.resolve("skills/skill_v0000.md")), Files.readString(run.resolve("best_skill.md")), "the run learned something");
            assertEquals(b.get("hard"), a.get("hard"), "the best skill's score, not the initial skill's rows");
            assertEquals(b.get("soft"), a.get("soft"));
        }
    }
}
