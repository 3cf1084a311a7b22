package io.skillopt4j.train;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.TrainingEvent;
import io.skillopt4j.run.TrainingListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A run folder as a kill at a given moment leaves it (a copy taken while the run goes on, so every file is old or new as
 * the atomic writes make it, and an append may be cut), resumed: every JSONL line parses and summary.json equals the
 * uninterrupted run's but for the wall time, token_summary included.
 */
class ResumeAnywhereTest {
    @TempDir Path tmp;

    /**
     * Copies a running run folder as a kill would leave it. A kill freezes every file at one instant; a copy taken file
     * by file while the next step's rollouts go on does not, so the order keeps what a kill keeps: the rows files first
     * (an item's files are written before its row, so every row copied has its files copied later), token_usage.jsonl
     * last (a call's line is there before any result of it).
     */
    static void copy(Path from, Path to) {
        List<Path> rows = list(from).stream().filter(p -> p.getFileName().toString().equals("results.jsonl")).toList();
        rows.forEach(p -> copyFile(from, p, to));
        List<Path> rest = new ArrayList<>(list(from)); // listed after the rows are copied: the files of every row are there
        rest.removeAll(rows);
        List<Path> newRows = rest.stream().filter(p -> p.getFileName().toString().equals("results.jsonl")).toList();
        rest.removeAll(newRows);
        rest.addAll(0, newRows); // a rows file begun meanwhile, copied at once so its rows are those of listed files
        Path journal = from.resolve(io.skillopt4j.backend.UsageJournal.FILE);
        if (rest.remove(journal)) rest.add(journal);
        rest.forEach(p -> copyFile(from, p, to));
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void copyFile(Path from, Path p, Path to) {
        Path t = to.resolve(from.relativize(p).toString());
        try {
            if (Files.isDirectory(p)) Files.createDirectories(t);
            else if (!p.getFileName().toString().equals(io.skillopt4j.run.RunLock.FILE)) {
                Files.createDirectories(t.getParent());
                Files.copy(p, t);
            }
        } catch (java.nio.file.NoSuchFileException renamedMeanwhile) { // as a kill would see it
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** summary.json without the wall time and the config (its out_root); token_summary and fault_usage stay. */
    static Map<String, Object> comparable(Path run) {
        @SuppressWarnings("unchecked") Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) Json.read(run.resolve("summary.json")));
        for (String k : List.of("total_wall_time_s", "config")) m.remove(k);
        return m;
    }

    static void assertEveryLineParses(Path run) throws IOException {
        try (Stream<Path> s = Files.walk(run)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    int n = i + 1;
                    assertDoesNotThrow(() -> Json.mapper().readTree(line), f + ":" + n);
                }
                String text = Files.readString(f);
                assertTrue(text.isEmpty() || text.endsWith("\n"), f + " ends with a whole line");
            }
        }
    }

    @Test
    void aRunResumedFromWhereverItWasKilledWritesTheUninterruptedSummary() throws Exception {
        try (io.skillopt4j.sim.SimServer sim = io.skillopt4j.sim.SimServer.builder().seed(7).start()) {
            resumeEverySnapshot(sim.url());
        }
    }

    private void resumeEverySnapshot(String sim) throws Exception {
        Path reference = tmp.resolve("reference");
        List<Path> snapshots = new ArrayList<>();
        TrainingListener snap = new TrainingListener() {
            @Override public void on(TrainingEvent e) {
                boolean late = e instanceof TrainingEvent.StepFinished s && s.step() >= s.totalSteps() - 1
                        || e instanceof TrainingEvent.EpochFinished
                        || e instanceof TrainingEvent.StageFinished f && f.stage().equals("final_selection");
                if (!late) return;
                Path to = tmp.resolve("snap" + snapshots.size());
                copy(reference, to);
                snapshots.add(to);
            }
        };
        EngineRuns.train(EngineRuns.config(reference), reference, sim, null, snap);
        assertTrue(Files.isDirectory(reference.resolve("final_selection_eval")), "the final selection ran: the final skill was not the best");
        // killed after the final selection made the final skill the best, before the test evaluations or summary.json
        Path promoted = tmp.resolve("promoted");
        copy(reference, promoted);
        Files.delete(promoted.resolve("summary.json"));
        for (String d : List.of("test_eval", "test_eval_final")) AtomicFiles.deleteTree(promoted.resolve(d));
        snapshots.add(promoted);
        // killed while appending a row: half a line at the end of the selection's results
        Path torn = tmp.resolve("torn");
        copy(reference, torn);
        Files.delete(torn.resolve("summary.json"));
        Path rows = torn.resolve("final_selection_eval").resolve("results.jsonl");
        List<String> kept = Files.readAllLines(rows);
        Files.writeString(rows, String.join("\n", kept.subList(0, kept.size() - 1)) + "\n" + kept.get(kept.size() - 1).substring(0, 20));
        snapshots.add(torn);

        Map<String, Object> expected = comparable(reference);
        assertNotNull(expected.get("final_selection_soft"));
        assertEquals(expected.get("current_origin"), expected.get("best_origin"), "the final selection made the final skill the best");
        for (Path s : snapshots) {
            EngineRuns.train(EngineRuns.config(s), s, sim, null);
            assertEquals(expected, comparable(s), s.getFileName().toString());
            assertEveryLineParses(s);
        }
        assertEquals(kept, Files.readAllLines(rows), "the torn row was cut and written again whole");
    }
}
