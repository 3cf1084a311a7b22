package io.skillopt4j.run;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.backend.TraceStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class RunReaderTest {
    @Test
    void readsCompletePythonRunWithoutWarnings() {
        RunSnapshot s = RunReader.read(Fixtures.run("python-searchqa"));
        assertEquals(List.of(), s.warnings());
        assertEquals("finished", s.status());
        assertEquals(8, s.history().size());
        assertEquals(8, s.steps().size());
        assertEquals(9, s.skills().size());
        assertTrue(s.bestSkill().startsWith("#") || !s.bestSkill().isBlank());
        assertEquals(2, s.epochs().size());
        assertEquals("force_accept", s.epochs().get(1).slowResult().get("action"));
        assertEquals(6, s.epochs().get(1).comparisonPairs().size());
        assertEquals(Map.of("total", 10, "hard_acc", 1.0), s.testSummaries().get("test_eval").get("overall"));
        StepArtifacts one = s.step(1);
        assertEquals(3, one.patches().size());
        assertEquals(4, one.editApplyReport().size());
        assertFalse(one.candidateSkill().isEmpty());
        long test = s.rolloutSets().stream().filter(r -> r.phase().equals("test")).count();
        assertEquals(1, test);
        RolloutSet t = s.rolloutSets().stream().filter(r -> r.phase().equals("test")).findFirst().orElseThrow();
        assertEquals(8, t.step());
        assertEquals(10, t.results().size());
    }

    @Test
    void partialRunKeepsLastDuplicatedStepAndWarnsPerMissingFile() {
        RunSnapshot s = RunReader.read(Fixtures.run("python-searchqa-partial"));
        assertEquals("incomplete", s.status());
        assertEquals(List.of(1, 2, 3, 4), s.history().stream().map(h -> ((Number) h.get("step")).intValue()).toList());
        assertEquals(0.6, ((Number) s.history().get(3).get("wall_time_s")).doubleValue());
        assertTrue(s.warnings().contains("summary.json: missing (run in progress or killed?)"), s.warnings().toString());
        assertTrue(s.warnings().contains("steps/step_0005/step_record.json: missing (run in progress or killed?)"), s.warnings().toString());
        assertEquals(2, s.warnings().size(), s.warnings().toString());
        RolloutSet inProgress = s.rolloutSets().stream().filter(r -> Integer.valueOf(5).equals(r.step())).findFirst().orElseThrow();
        assertEquals(3, inProgress.results().size());
    }

    @Test
    void killedRunRebuildsHistoryFromStepRecordsAndSkipsTornLine() {
        RunSnapshot s = RunReader.read(Fixtures.run("python-searchqa-killed"));
        assertEquals(6, s.history().size());
        assertEquals("reject", s.history().get(5).get("action"));
        List<String> w = s.warnings();
        assertTrue(w.contains("history.json: not complete JSON (torn write?); ignored"), w.toString());
        assertTrue(w.contains("steps/step_0007/rollout/results.jsonl: line 5 is incomplete (torn last line?); skipped"), w.toString());
        assertTrue(w.contains("steps/step_0007/step_record.json: missing (run in progress or killed?)"), w.toString());
        assertTrue(w.contains("summary.json: missing (run in progress or killed?)"), w.toString());
        assertEquals(4, w.size(), w.toString());
        RolloutSet seven = s.rolloutSets().stream().filter(r -> Integer.valueOf(7).equals(r.step())).findFirst().orElseThrow();
        assertEquals(4, seven.results().size());
    }

    @Test
    void folderThatIsNotARunThrowsNamingIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "hello");
        RunFolderException e = assertThrows(RunFolderException.class, () -> RunReader.read(dir));
        assertTrue(e.getMessage().startsWith(dir + ": not a SkillOpt run folder"), e.getMessage());
        RunFolderException missing = assertThrows(RunFolderException.class, () -> RunReader.read(dir.resolve("nope")));
        assertEquals(dir.resolve("nope") + ": no such run folder", missing.getMessage());
    }

    @Test
    void emptyRunFolderJustStartedGivesWarningsNotErrors(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("config.json"), "{\"num_epochs\": 2, \"steps_per_epoch\": 3}");
        RunSnapshot s = RunReader.read(dir);
        assertEquals("not started", s.status());
        assertEquals(6, s.plannedSteps());
        assertTrue(s.warnings().contains("history.json: missing (run in progress or killed?)"));
    }

    @Test
    void findRunsListsRunSubfolders() {
        Path root = Fixtures.run("python-searchqa").getParent();
        List<Path> runs = RunReader.findRuns(root);
        assertTrue(runs.contains(Fixtures.run("python-searchqa")));
        assertTrue(runs.contains(Fixtures.run("python-searchqa-killed")));
        assertEquals(List.of(Fixtures.run("exec-traces")), RunReader.findRuns(Fixtures.run("exec-traces")));
    }

    @Test
    void parsesClaudeStepListingAndCodexAndCursorRawStreamsWithTheBackendParsers() {
        RunSnapshot s = RunReader.read(Fixtures.run("exec-traces"));
        List<TraceFile> traces = RunReader.traces(s);
        assertEquals(List.of("claude", "codex", "cursor"), traces.stream().map(TraceFile::backend).toList());
        List<TraceStep> claude = traces.get(0).steps();
        assertEquals(6, claude.size());
        assertEquals(TraceStep.Kind.TOOL_CALL, claude.get(1).kind());
        assertEquals("Read", claude.get(1).tool());
        assertTrue(claude.get(2).text().contains("\nPassage 1"), "continuation lines stay with their step");
        assertEquals(88, claude.get(2).chars());
        assertEquals(412, claude.get(4).chars());
        assertTrue(claude.get(4).truncated());
        assertFalse(claude.get(5).truncated());
        List<TraceStep> codex = traces.get(1).steps();
        assertEquals(List.of(TraceStep.Kind.TEXT, TraceStep.Kind.TOOL_CALL, TraceStep.Kind.TOOL_RESULT, TraceStep.Kind.TEXT),
                codex.stream().map(TraceStep::kind).toList());
        assertEquals("cat task.md", codex.get(1).text());
        assertEquals("exec", codex.get(1).tool());
        List<TraceStep> cursor = traces.get(2).steps();
        assertEquals(3, cursor.size());
        assertEquals("read", cursor.get(1).tool());
        assertTrue(cursor.get(2).truncated());
        assertEquals(200, cursor.get(2).text().length());
    }
}
