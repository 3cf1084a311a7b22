package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class TrainerKillTest {
    @TempDir Path tmp;

    private static Process start(Path out, Path skill) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), KillableRun.class.getName(),
                out.toString(), skill.toString(), "15").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /**
     * Every visible JSON file parses, history.json holds steps 1..k once each, in order, and runtime_state.json names
     * step k, or k - 1 when the kill fell between the step commit's two renames (history first, then runtime state:
     * a resume truncates history to the runtime state). {@code settled}: no kill since the last write, so exactly k.
     */
    private static void assertConsistent(Path run, boolean settled) throws Exception {
        if (!Files.exists(run)) return;
        try (Stream<Path> s = Files.walk(run)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".json") && !p.getFileName().toString().startsWith(".")).toList()) {
                assertDoesNotThrow(() -> Json.read(f), f.toString());
            }
        }
        if (!Files.exists(run.resolve("history.json"))) return;
        List<?> h = (List<?>) Json.read(run.resolve("history.json"));
        for (int i = 0; i < h.size(); i++) assertEquals(i + 1, ((Map<?, ?>) h.get(i)).get("step"), "history steps");
        Object last = ((Map<?, ?>) Json.read(run.resolve("runtime_state.json"))).get("last_completed_step");
        int behind = h.size() - ((Number) last).intValue();
        if (settled) assertEquals(0, behind, "runtime_state matches history");
        else assertTrue(behind == 0 || behind == 1, "runtime_state is history's last step or the one before: " + behind);
    }

    private static List<Map<String, Object>> comparable(Path run) {
        List<Map<String, Object>> out = new ArrayList<>(TrainerResumeTest.timeless(run));
        out.forEach(m -> m.remove("tokens")); // a re-run step reuses rollouts and analyses, so it makes fewer calls
        return out;
    }

    @Test
    void aRunKilledAtRandomMomentsAndRestartedLosesAndDuplicatesNothing() throws Exception {
        Path skill = TrainerEndToEndTest.initialSkill(tmp);
        Path reference = tmp.resolve("reference"), killed = tmp.resolve("killed");
        KillableRun.run(reference, skill, 0);
        Random rnd = new Random(20261202);
        int kills = 0;
        for (int trial = 0; trial < 4 && !Files.exists(killed.resolve("summary.json")); trial++) {
            Process p = start(killed, skill);
            // kill relative to progress, not to JVM start: wait for the run to write, then a random moment later
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (p.isAlive() && !Files.exists(killed.resolve("config.json")) && System.nanoTime() < deadline) Thread.sleep(5);
            boolean ended = p.waitFor(20 + rnd.nextInt(600), TimeUnit.MILLISECONDS);
            if (!ended) {
                p.destroyForcibly();
                p.waitFor();
                kills++;
            }
            assertConsistent(killed, ended);
        }
        assertTrue(kills >= 1, "at least one run was killed mid-way");
        KillableRun.run(killed, skill, 0);
        assertConsistent(killed, true);
        ResumeAnywhereTest.assertEveryLineParses(killed); // a row torn by a kill was cut before the resumed run appended
        assertEquals(comparable(reference), comparable(killed));
        assertEquals(Files.readString(reference.resolve("best_skill.md")), Files.readString(killed.resolve("best_skill.md")));
        Map<?, ?> a = (Map<?, ?>) Json.read(reference.resolve("summary.json")), b = (Map<?, ?>) Json.read(killed.resolve("summary.json"));
        for (String k : List.of("test_hard", "baseline_test_hard", "final_test_hard", "best_step", "total_steps")) assertEquals(a.get(k), b.get(k), k);
    }
}
