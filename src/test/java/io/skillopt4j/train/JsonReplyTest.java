package io.skillopt4j.train;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class JsonReplyTest {
    private static Map<String, Object> obj(String s) { return JsonReply.object(s).orElseThrow(() -> new AssertionError("no object in " + s)); }

    @Test
    void readsTheFencedBlockFirst() {
        assertEquals(1, obj("Here:\n```json\n{\"a\": 1}\n```\nand {\"a\": 2}").get("a"));
    }

    @Test
    void readsTheSpanFromFirstToLastBrace() {
        assertEquals(List.of(1, 2), obj("Sure! {\"x\": [1, 2]} Hope it helps.").get("x"));
    }

    @Test
    void repairsTrailingCommasSingleQuotesBareKeysAndPythonLiterals() {
        Map<String, Object> m = obj("{\"a\": 1, \"b\": ['x', 'y',], \"c\": True, \"d\": None,}");
        assertEquals(List.of("x", "y"), m.get("b"));
        assertEquals(true, m.get("c"));
        assertTrue(m.containsKey("d") && m.get("d") == null);
    }

    @Test
    void repairsRawNewlinesAndUnescapedQuotesInsideStrings() {
        Map<String, Object> m = obj("{\"content\": \"line one\nsay \"hi\" now\", \"op\": \"append\"}");
        assertEquals("line one\nsay \"hi\" now", m.get("content"));
        assertEquals("append", m.get("op"));
    }

    @Test
    void closesATruncatedReply() {
        Map<String, Object> m = obj("```json\n{\"patch\": {\"reasoning\": \"r\", \"edits\": [{\"op\": \"append\", \"content\": \"x\"");
        @SuppressWarnings("unchecked") Map<String, Object> p = (Map<String, Object>) m.get("patch");
        assertEquals("x", ((Map<?, ?>) ((List<?>) p.get("edits")).get(0)).get("content"));
    }

    @Test
    void refusesAmbiguousOrNonJsonText() {
        assertTrue(JsonReply.object("first {\"a\": 1,} then {\"b\": 2,}").isEmpty(), "two objects are ambiguous");
        assertTrue(JsonReply.object("no json here").isEmpty());
        assertTrue(JsonReply.object("{ not json at all }").isEmpty(), "does not look like JSON");
        assertTrue(JsonReply.object("").isEmpty());
    }

    @Test
    void ignoresBracesInsideQuotedProse() {
        assertEquals(List.of("{x}"), JsonReply.topLevelObjects("say \"{x}\" ok").isEmpty() ? List.of("{x}") : List.of());
        assertEquals("a {b}", obj("note: {\"k\": \"a {b}\",}").get("k"));
    }

    @Test
    void returnsNonObjectValuesOnlyThroughExtract() {
        assertEquals(List.of(1, 2), JsonReply.extract("```json\n[1, 2]\n```"));
        assertTrue(JsonReply.object("```json\n[1, 2]\n```").isEmpty());
    }
}
