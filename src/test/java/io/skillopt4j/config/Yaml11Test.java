package io.skillopt4j.config;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Yaml11Test {
    private static Object scalar(String text) {
        return ((Map<?, ?>) Yaml11.parse("v: " + text + "\n", "t.yaml")).get("v");
    }

    @Test
    void resolvesScalarsLikePyYamlSafeLoad() {
        assertEquals(true, scalar("yes"));
        assertEquals(true, scalar("On"));
        assertEquals(false, scalar("off"));
        assertEquals(false, scalar("NO"));
        assertEquals("y", scalar("y"));
        assertNull(scalar("~"));
        assertNull(scalar("null"));
        assertNull(scalar(""));
        assertEquals(1000, scalar("1_000"));
        assertEquals(16, scalar("0x10"));
        assertEquals(8, scalar("010"));
        assertEquals(5, scalar("0b101"));
        assertEquals(90, scalar("1:30"));
        assertEquals(7267, scalar("2:1:7"));
        assertEquals(LocalDate.of(2024, 12, 1), scalar("2024-12-01"));
        assertEquals("1e3", scalar("1e3"));
        assertEquals("1.0e3", scalar("1.0e3"));
        assertEquals(1000.0, scalar("1.0e+3"));
        assertEquals(0.5, scalar(".5"));
        assertEquals(Double.POSITIVE_INFINITY, scalar(".inf"));
        assertTrue(Double.isNaN((Double) scalar(".NaN")));
        assertEquals("2:1:7", scalar("\"2:1:7\""));
        assertEquals("0.7", scalar("\"0.7\""));
    }

    @Test
    void keepsListsAndNestedMappingsInOrder() {
        Object doc = Yaml11.parse("a:\n  z: 1\n  b: [1, x]\n", "t.yaml");
        Map<?, ?> a = (Map<?, ?>) ((Map<?, ?>) doc).get("a");
        assertEquals(List.of("z", "b"), List.copyOf(a.keySet()));
        assertEquals(List.of(1, "x"), a.get("b"));
    }

    @Test
    void emptyDocumentIsNull() {
        assertNull(Yaml11.parse("", "t.yaml"));
        assertNull(Yaml11.parse("# only a comment\n", "t.yaml"));
    }

    @Test
    void syntaxErrorIsOneLineNamingFileAndLine() {
        var e = assertThrows(io.skillopt4j.ConfigException.class, () -> Yaml11.parse("a: [1, 2\nb: 3\n", "bad.yaml"));
        assertTrue(e.getMessage().startsWith("bad.yaml: invalid YAML at line "), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }
}
