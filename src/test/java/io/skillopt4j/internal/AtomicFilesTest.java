package io.skillopt4j.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AtomicFilesTest {
    @TempDir Path dir;

    private static byte[] b(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    private List<String> leftovers() throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.contains(".tmp")).toList();
        }
    }

    @Test void sweepStaleTempsDeletesDeadWritersTempFilesOnly() throws Exception {
        long dead = deadPid(), live = ProcessHandle.current().pid();
        Files.createDirectories(dir.resolve("steps/step_0001"));
        Files.writeString(dir.resolve(".history.json.tmp" + dead + "-3"), "[");
        Files.writeString(dir.resolve("steps/step_0001/.step_record.json.tmp" + dead + "-4"), "{");
        Files.writeString(dir.resolve(".summary.json.tmp" + live + "-5"), "{"); // a live writer's: kept
        Files.writeString(dir.resolve("notes.tmp1-2"), "x"); // not ours (no leading dot): kept
        assertEquals(2, AtomicFiles.sweepStaleTemps(dir));
        assertEquals(List.of(".summary.json.tmp" + live + "-5", "notes.tmp1-2"), leftovers().stream().sorted().toList());
        assertEquals(0, AtomicFiles.sweepStaleTemps(dir.resolve("absent")));
    }

    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    @Test void writeAllReplacesEveryFileAndLeavesNoTempFiles() throws Exception {
        Files.writeString(dir.resolve("history.json"), "old");
        LinkedHashMap<Path, byte[]> files = new LinkedHashMap<>();
        files.put(dir.resolve("skills/skill_v0001.md"), b("# skill"));
        files.put(dir.resolve("history.json"), b("[1]"));
        files.put(dir.resolve("runtime_state.json"), b("{}"));
        AtomicFiles.writeAll(files);
        assertEquals("# skill", Files.readString(dir.resolve("skills/skill_v0001.md")));
        assertEquals("[1]", Files.readString(dir.resolve("history.json")));
        assertEquals("{}", Files.readString(dir.resolve("runtime_state.json")));
        assertEquals(List.of(), leftovers());
    }

    @Test void whenOneFileCannotBeWrittenNoneOfTheBatchIsReplaced() throws Exception {
        Files.writeString(dir.resolve("history.json"), "old");
        Files.writeString(dir.resolve("blocker"), "a file where a folder should be");
        LinkedHashMap<Path, byte[]> files = new LinkedHashMap<>();
        files.put(dir.resolve("history.json"), b("new"));
        files.put(dir.resolve("blocker/step_record.json"), b("{}"));
        files.put(dir.resolve("runtime_state.json"), b("{}"));
        assertThrows(UncheckedIOException.class, () -> AtomicFiles.writeAll(files));
        assertEquals("old", Files.readString(dir.resolve("history.json")));
        assertFalse(Files.exists(dir.resolve("runtime_state.json")));
        assertEquals(List.of(), leftovers());
    }

    @Test void concurrentAppendsKeepWholeLinesPerFileWhateverPathSpellingIsUsed() throws Exception {
        // long lines (larger than one write of some channels) from 4 threads, to 2 files, one of them under 2 spellings
        Path a = dir.resolve("a.jsonl"), aOther = dir.resolve("sub/../a.jsonl"), b = dir.resolve("b.jsonl");
        Files.createDirectories(dir.resolve("sub"));
        String pad = "x".repeat(20_000);
        List<Thread> ts = new java.util.ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            ts.add(new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    AtomicFiles.appendLine(id % 2 == 0 ? a : aOther, "a" + id + "-" + i + pad);
                    AtomicFiles.appendLine(b, "b" + id + "-" + i + pad);
                }
            }));
        }
        for (Thread t : ts) t.start();
        for (Thread t : ts) t.join();
        for (Path f : List.of(a, b)) {
            List<String> lines = Files.readAllLines(f);
            assertEquals(200, lines.size());
            for (String l : lines) assertEquals(true, l.matches("[ab]\\d-\\d+x{20000}"), () -> "torn line in " + f);
            assertEquals(200, lines.stream().distinct().count());
        }
    }

    @Test void repairTornLinesCutsOnlyAHalfWrittenLastLineOfJsonlFiles() throws Exception {
        Path run = dir.resolve("torn-run");
        Path rows = run.resolve("steps/step_0001/selection_eval/results.jsonl"), whole = run.resolve("cost_ledger.jsonl");
        Path oneHalf = run.resolve("lr_history.jsonl"), notJsonl = run.resolve("notes.txt");
        Files.createDirectories(rows.getParent());
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 2000; i++) big.append("{\"id\": \"q-").append(i).append("\", \"hard\": 1}\n"); // past one read buffer
        String tail = "{\"id\": \"q-2000\", \"ha" + "x".repeat(9000); // a torn row longer than the read buffer
        Files.writeString(rows, big + tail);
        Files.writeString(whole, "{\"a\": 1}\n{\"b\": 2}\n");
        Files.writeString(oneHalf, "{\"step\": 1, \"ed");
        Files.writeString(notJsonl, "no newline");
        assertEquals(java.util.Set.of(rows, oneHalf), java.util.Set.copyOf(AtomicFiles.repairTornLines(run)));
        assertEquals(big.toString(), Files.readString(rows));
        assertEquals("{\"a\": 1}\n{\"b\": 2}\n", Files.readString(whole), "whole lines are left alone");
        assertEquals("", Files.readString(oneHalf), "a file of one torn line becomes empty");
        assertEquals("no newline", Files.readString(notJsonl), "only JSONL files are appended to");
        assertEquals(java.util.List.of(), AtomicFiles.repairTornLines(run), "nothing left to repair");
        AtomicFiles.appendLine(rows, "{\"id\": \"q-2000\", \"hard\": 0}");
        assertEquals(true, Files.readString(rows).endsWith("\"q-1999\", \"hard\": 1}\n{\"id\": \"q-2000\", \"hard\": 0}\n"));
        assertEquals(java.util.List.of(), AtomicFiles.repairTornLines(dir.resolve("absent")));
    }
}
