package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** PlainYaml reads what it accepts exactly as SnakeYAML (Yaml11.snake) does, and leaves everything else to it. */
class PlainYamlTest {
    /** Asserts the two readers agree on {@code text} whenever PlainYaml accepts it; returns whether it did. */
    private static boolean same(String text) {
        Object plain = PlainYaml.parse(text);
        Object snake;
        try {
            snake = Yaml11.snake(text, "t.yaml");
        } catch (ConfigException e) {
            assertSame(PlainYaml.OTHER, plain, () -> "SnakeYAML rejects, PlainYaml accepted:\n" + text);
            return false;
        }
        if (plain == PlainYaml.OTHER) return false;
        assertEquals(snake, plain, () -> "different reading of:\n" + text);
        assertEquals(String.valueOf(snake), String.valueOf(plain), () -> "different order or types in:\n" + text);
        if (snake != null) assertEquals(snake.getClass(), plain.getClass());
        return true;
    }

    @Test void everyBundledConfigIsReadWithoutSnakeYamlAndAlike() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.walk(Path.of("configs"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).toList();
        }
        assertFalse(files.isEmpty());
        for (Path f : files) {
            assertTrue(same(Files.readString(f, StandardCharsets.UTF_8)), () -> f + " is not read by PlainYaml");
        }
    }

    @Test void theBundledPriceTableIsReadWithoutSnakeYamlAndAlike() {
        String text = io.skillopt4j.internal.Resources.find(io.skillopt4j.backend.PriceTable.BUNDLED).orElseThrow();
        assertTrue(same(text), "the bundled prices.yaml left the plain shape PlainYaml reads");
        assertTrue(((java.util.Map<?, ?>) PlainYaml.parse(text)).size() >= 10);
        assertNotNull(io.skillopt4j.backend.PriceTable.defaults().find("gpt-4o"));
    }

    @Test void acceptedShapes() {
        String[] yes = {
            "a: 1\n", "a: -7\nb: 0\nc: 2147483648\nd: 99999999999999999999\ne: -2147483648\n",
            "a: 1.50\nb: -0.0\nc: 10.25 # cost\n", "a: true\nb: off\nc: Yes\nd: NO\n", "a: null\nb: ~\nc:\nd: \"\"\ne: ''\n",
            "# top\nmodel:\n  backend: x   # why\n  n: 3\n\n  # inner\nenv:\n  name: searchqa\n",
            "a:\n  - x\n  - \"y z\"\n  - 3\nb: 2\n", "a:\n- x\n- y\nb: 1\n", "a: http://h:80/p\nb: a#b\nc: it's\n",
            "x.y: 1\n_base_: ../b.yaml\n", "a: \"# not a comment\" # a comment\n", "a: café  ünïcode\n",
            "deep:\n  deeper:\n    deepest: 1\n  back: 2\ntop: 3\n", "a: b c  d\n", "# only a comment\n", "",
        };
        for (String t : yes) assertTrue(same(t) || PlainYaml.parse(t) == null, () -> "not accepted:\n" + t);
    }

    @Test void otherShapesAreLeftToSnakeYaml() {
        String[] no = {
            "a: [1, 2]\n", "a: {b: 1}\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n", "a: >\n  text\n",
            "a: foo\n  bar\n", "a: 0x10\n", "a: 010\n", "a: 1_000\n", "a: 1.5e+3\n", "a: 1:30\n", "a: .inf\n",
            "a: 2024-01-02\n", "a: \"x\\ty\"\n", "a: 'it''s'\n", "a: \"open\n", "a:\tb\n", "a: 1\na: 2\n", "yes: 1\n",
            "1: a\n", "\"k\": v\n", "- a\n- b\n", "plain\n", "---\na: 1\n", "a: 1\r\n", "a: +5\n", "a: -x\n", "a: b: c\n",
            "a: b:\n", "a:b\n", "  a: 1\n", "a:\n    b: 1\n  c: 2\n", "a:\n  - b: 1\n", "a:\n  -\n", "a: <<\n", "a: \u0085\n",
            "a: 1.\n", "a: .5\n", "a: # c\n  b: 1\n", "a: 2001-12-14t21:59:43.10-05:00\n", "a: @x\n", "a: %x\n",
        };
        for (String t : no) {
            assertSame(PlainYaml.OTHER, PlainYaml.parse(t), () -> "accepted:\n" + t);
            same(t);
        }
    }

    @Test void generatedDocumentsReadAlike() {
        String[] scalars = {"1", "-1", "0", "-0", "00", "007", "12", "2147483647", "2147483648", "-2147483649",
            "9223372036854775807", "9223372036854775808", "1.0", "-1.5", "0.10", "1.", ".5", "1e3", "1.0e+3", "1_0",
            "0x1f", "0b101", "0o7", "1:20", "1:20.5", ".inf", "-.Inf", ".NaN", "true", "True", "TRUE", "tRue", "yes", "y",
            "n", "no", "on", "Off", "null", "Null", "nULL", "~", "", "\"\"", "''", "\"a b\"", "'a b'", "\"a'b\"", "'a\"b'",
            "\"a\\\"b\"", "2024-01-02", "2024-1-2", "2024-01-02 10:00:00", "a#b", "a #b", "a # b", "#x", "x:", "x: y",
            "http://a/b", "a:b", "-x", "- x", "?x", "? x", "<<", "=", "a b", "é", "@a", "`a", "!a", "&a", "*a", "|", ">",
            "[a]", "{a: 1}", "a,b", ",a", "\"unterminated", "'q''q'", "x  ", "gpt-4.1", "../_base_/default.yaml"};
        String[] keys = {"a", "b_c", "d.e", "f-g", "yes", "on", "null", "1", "x1", "_base_", "\"q\"", "k k", "k:"};
        Random r = new Random(42);
        int accepted = 0;
        for (int n = 0; n < 4000; n++) {
            StringBuilder sb = new StringBuilder();
            List<Integer> open = new ArrayList<>(List.of(0));
            int lines = 1 + r.nextInt(8);
            for (int i = 0; i < lines; i++) {
                int indent = open.get(r.nextInt(open.size()));
                String pad = " ".repeat(indent);
                switch (r.nextInt(10)) {
                    case 0 -> sb.append(pad).append("# c ").append(scalars[r.nextInt(scalars.length)]).append('\n');
                    case 1 -> { sb.append(pad).append(keys[r.nextInt(keys.length)]).append(":\n"); open.add(indent + 2); }
                    case 2 -> sb.append(pad).append("- ").append(scalars[r.nextInt(scalars.length)]).append('\n');
                    case 3 -> sb.append('\n');
                    default -> {
                        sb.append(pad).append(keys[r.nextInt(keys.length)]).append(": ").append(scalars[r.nextInt(scalars.length)]);
                        if (r.nextInt(4) == 0) sb.append(r.nextBoolean() ? "  # note" : " #");
                        sb.append('\n');
                    }
                }
            }
            if (same(sb.toString())) accepted++;
        }
        assertTrue(accepted > 300, "too few generated documents took the plain path: " + accepted);
    }
}
