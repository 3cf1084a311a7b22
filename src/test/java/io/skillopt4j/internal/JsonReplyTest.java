package io.skillopt4j.internal;

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
        assertTrue(JsonReply.topLevelObjects("say \"{x}\" ok").isEmpty());
        assertEquals("a {b}", obj("note: {\"k\": \"a {b}\",}").get("k"));
    }

    @Test
    void returnsNonObjectValuesOnlyThroughExtract() {
        assertEquals(List.of(1, 2), JsonReply.extract("```json\n[1, 2]\n```"));
        assertTrue(JsonReply.object("```json\n[1, 2]\n```").isEmpty());
    }

    @Test
    void readsJsonAndBareFencesWithTextAround() {
        assertEquals(1, obj("Sure.\n```json\n{\"a\": 1}\n```\nThat is all.").get("a"));
        assertEquals(1, obj("Sure.\n```\n{\"a\": 1}\n```\nThat is all.").get("a"));
        assertEquals(1, obj("```JSON {\"a\": 1}```").get("a"), "a one-line fence, upper-case tag");
        assertEquals(1, JsonReply.extractObject("text\n```\n{\"a\": 1}\n```").orElseThrow().path("a").asInt());
    }

    @Test
    void skipsBlocksOfOtherLanguagesAndPairsFencesInOrder() {
        String text = "Run:\n```python\nprint({'x': 2})\n```\nthen:\n```json\n{\"a\": 1}\n```\n";
        assertEquals(List.of("{\"a\": 1}"), JsonReply.fencedBlocks(text), "the python block's closing fence opens nothing");
        assertEquals(1, obj(text).get("a"));
        assertEquals(1, JsonReply.extractObject(text).orElseThrow().path("a").asInt());
    }

    @Test
    void nestedBackticksInsideAStringFallBackToTheBraceSpan() {
        String text = "```json\n{\"content\": \"use ```bash\\nls\\n``` first\"}\n```";
        assertEquals("use ```bash\nls\n``` first", obj(text).get("content"));
        assertEquals("use ```bash\nls\n``` first", JsonReply.extractObject(text).orElseThrow().path("content").asText());
    }

    @Test
    void extractObjectDoesNotRepair() {
        assertTrue(JsonReply.extractObject("{\"a\": 1,").isEmpty(), "a truncated chat reply is retried, not guessed");
        assertTrue(JsonReply.extractObject("```json\n[1]\n```").isEmpty());
        assertTrue(JsonReply.object("{\"a\": 1,").isPresent());
    }

    @Test
    void jacksonFeaturesCoverCommentsBareKeysAndControlCharacters() {
        Map<String, Object> m = obj("{\"a\": 1, // why\n b: 'two', /* c */ \"t\": \"x\ty\",}");
        assertEquals(Map.of("a", 1, "b", "two", "t", "x\ty"), m);
    }

    @Test
    void closesTruncationsMidStringMidKeyAndAfterAColon() {
        assertEquals("abc", obj("{\"a\": \"abc").get("a"));
        Map<String, Object> k = obj("{\"a\": 1, \"b");
        assertTrue(k.containsKey("b") && k.get("b") == null);
        Map<String, Object> c = obj("{\"a\": [1, 2], \"b\":");
        assertEquals(List.of(1, 2), c.get("a"));
        assertTrue(c.containsKey("b") && c.get("b") == null);
        assertEquals("it's", obj("{\"a\": 'it's'}").get("a"));
        assertEquals("draft", obj("{\"a\": draft,}").get("a"), "a bare word value is read as text");
    }
}
