package io.skillopt4j.train;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.skillopt4j.train.SkillDocument.*;
import static org.junit.jupiter.api.Assertions.*;

class SkillDocumentTest {
    @Test
    void hashIsTheFirst16HexOfSha256OverUtf8() {
        assertEquals("e3b0c44298fc1c14", hash(""));
        assertEquals("2cf24dba5fb0a30e", hash("hello"));
    }

    @Test
    void slowUpdateBlockIsInjectedOnceAndReplacedAtTheEnd() {
        String s = injectSlowPlaceholder("# S\n\n\n\nbody\n");
        assertEquals("# S\n\n\n\nbody\n\n" + SLOW_START + "\n" + SLOW_END + "\n", s);
        assertSame(s, injectSlowPlaceholder(s));
        String r = replaceSlowUpdateField(s + "tail\n", "- guidance");
        assertEquals("# S\n\nbody\n\ntail\n\n" + SLOW_START + "\n- guidance\n" + SLOW_END + "\n", r);
        assertEquals("- guidance", slowUpdateContent(r));
    }

    @Test
    void appendixKeepsNotesAsBullets() {
        String s = withAppendix("# S\n", List.of("one", "two"));
        assertEquals("# S\n\n" + APPENDIX_START + "\n## Execution Notes Appendix\n- one\n- two\n" + APPENDIX_END + "\n", s);
        assertEquals(List.of("one", "two"), appendixNotes(s));
        assertEquals(s.replace("- two\n", ""), withAppendix(s, List.of("one")));
    }

    @Test
    void protectedRegionsSpanFromStartToTheEndOfTheEndMarker() {
        String s = "a " + SLOW_START + " b " + SLOW_END + " c";
        assertFalse(inProtected(s, 0));
        assertTrue(inProtected(s, s.indexOf("b")));
        assertTrue(inProtected(s, s.indexOf(SLOW_END) + SLOW_END.length() - 1));
        assertFalse(inProtected(s, s.indexOf(" c")));
    }

    @Test
    void anOrphanStartMarkerLosesOnlyTheMarkerNeverTheRestOfTheSkill() {
        String orphan = "# S\n\n" + SLOW_START + "\n- keep me\n";
        assertEquals("# S\n\n- keep me\n\n" + SLOW_START + "\n- g\n" + SLOW_END + "\n", replaceSlowUpdateField(orphan, "- g"),
                "only the marker is removed");
        String app = "# S\n\n" + APPENDIX_START + "\n- body rule\n";
        assertTrue(withAppendix(app, List.of("n")).contains("- body rule"));
        assertEquals(List.of(), appendixNotes(app), "no end marker: no notes (upstream's extract)");
        assertEquals("", slowUpdateContent(orphan));
        assertFalse(inProtected(orphan, orphan.indexOf("keep")), "a region needs both markers");
        // density strips the orphan marker only, so the text after it still counts
        assertTrue(density("# S\n" + SLOW_START + "\nALWAYS", java.util.Set.of("always")) > 0);
    }

    @Test
    void injectionsNeedBothMarkersAndLeaveTheRestOfTheDocumentAlone() {
        String s = "# S\n\n\n\nbody\n";
        assertEquals("# S\n\n\n\nbody\n\n" + APPENDIX_START + "\n## Execution Notes Appendix\n" + APPENDIX_END + "\n", injectEmptyAppendix(s));
        String half = s + SLOW_START + "\n";
        assertEquals(half.stripTrailing() + "\n\n" + SLOW_START + "\n" + SLOW_END + "\n", injectSlowPlaceholder(half));
    }

    @Test
    void appendixNotesReadAsUpstreamExtractsThem() {
        String s = "x\n" + APPENDIX_START + "\n## Execution Notes Appendix\n- one\n* two\n-three\n\nplain\n" + APPENDIX_END + "\n";
        assertEquals(List.of("one", "two", "three", "plain"), appendixNotes(s));
    }

    @Test
    void lengthCountsCodePoints() {
        assertEquals(2, length("a😀"));
        assertEquals("a😀", prefix("a😀b", 2));
    }
}
