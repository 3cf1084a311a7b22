package io.skillopt4j.train;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class AppendixTest {
    @Test
    void extractsNotesFromStringsListsAndObjects() {
        assertEquals(List.of("a"), Appendix.extractNotes(" a "));
        assertEquals(List.of("a", "b", "c"), Appendix.extractNotes(List.of("a", Map.of("note", "b"), Map.of("content", "c"), 3)));
    }

    @Test
    void deduplicatesByCanonicalKeyInFirstSeenOrder() {
        assertEquals(List.of("Check units.", "Re-read"), Appendix.merge(List.of("Check units."), List.of("check   UNITS;", "Re-read", "re-read.")));
    }

    @Test
    void flushAddsNotesAndConsolidatesAboveTheThreshold() {
        Stages.Recording m = new Stages.Recording(r -> "{\"appendix_notes\": [\"merged note\"]}");
        Appendix a = new Appendix(Stages.settings("use_skill_aware_reflection", true, "skill_aware_consolidate_threshold", 2), new Optimizer(m));
        Appendix.Flush f = a.flush("# S\n", List.of(Map.of("appendix_notes", List.of("one", "two", "three")))).orElseThrow();
        assertEquals(3, f.added());
        assertEquals(1, f.total());
        assertEquals(1, f.consolidated());
        assertEquals(List.of("merged note"), SkillDocument.appendixNotes(f.skill()));
        assertEquals(List.of("one", "two", "three"), f.appendixAfter());
        assertTrue(m.requests.get(0).lastUserText().startsWith("## Current Execution Notes (3 total)\n1. one\n2. two\n3. three\n"));
        assertTrue(a.flush("# S\n", List.of(Map.of("patch", Map.of()))).isEmpty());
    }
}
