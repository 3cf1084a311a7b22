package io.skillopt4j.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Differential: whatever the plain reader accepts, Jackson reads to the same value; everything else is left to Jackson. */
class PlainJsonReaderTest {
    private static final ObjectMapper M = Json.mapper();

    @Test
    void validDocumentsReadAsJacksonReadsThem() throws Exception {
        Random r = new Random(20261204);
        for (int i = 0; i < 4000; i++) {
            Object v = value(r, 0);
            for (String text : new String[] {M.writeValueAsString(v), Json.pretty(v), " \n\t" + Json.line(v) + "\r\n "}) {
                JsonNode fast = PlainJsonReader.tree(text);
                assertNotNull(fast, text);
                assertEquals(M.readTree(text), fast, text);
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8); // a lone surrogate becomes '?' here, for both readers
                assertEquals(M.readTree(utf8), PlainJsonReader.tree(utf8), text);
                Object plain = PlainJsonReader.plain(text);
                Object want = M.readValue(text, Object.class);
                assertEquals(want == null ? PlainJsonReader.NULL : want, plain, text);
                assertEquals(want, Json.parse(text), text);
            }
        }
        assertEquals(M.readTree("[2147483647, 2147483648, -2147483648, -2147483649, 9223372036854775807, 9223372036854775808, "
                + "-9223372036854775808, -9223372036854775809, 1000000000, -0, -0.0, 1e400, 1E-400, 0.1e1]"),
                PlainJsonReader.tree("[2147483647, 2147483648, -2147483648, -2147483649, 9223372036854775807, 9223372036854775808, "
                + "-9223372036854775808, -9223372036854775809, 1000000000, -0, -0.0, 1e400, 1E-400, 0.1e1]"));
        assertEquals(M.readTree("{\"a\": 1, \"b\": 2, \"a\": 3}"), PlainJsonReader.tree("{\"a\": 1, \"b\": 2, \"a\": 3}"));
        assertEquals(List.of("a", "b"), new ArrayList<>(((Map<?, ?>) PlainJsonReader.plain("{\"a\": 1, \"b\": 2, \"a\": 3}")).keySet()));
    }

    @Test
    void whatItAcceptsAfterAnyMutationJacksonReadsAlike() throws Exception {
        Random r = new Random(7);
        String inserts = "/NI+-0x9.,:[]{}\"\\ \u0001\u00a0eEtfnu";
        int accepted = 0;
        for (int i = 0; i < 20000; i++) {
            StringBuilder sb = new StringBuilder(Json.line(value(r, 0)));
            for (int k = 0, n = 1 + r.nextInt(3); k < n && sb.length() > 0; k++) {
                int at = r.nextInt(sb.length() + 1);
                switch (r.nextInt(3)) {
                    case 0 -> sb.insert(at, inserts.charAt(r.nextInt(inserts.length())));
                    case 1 -> { if (at < sb.length()) sb.deleteCharAt(at); }
                    default -> sb.setLength(at);
                }
            }
            String text = sb.toString();
            JsonNode fast = PlainJsonReader.tree(text);
            if (fast == null) continue;
            accepted++;
            assertEquals(M.readTree(text), fast, text);
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            assertEquals(M.readTree(utf8), Json.bodyTree(utf8), text);
        }
        assertEquals(true, accepted > 1000, "mutations that stay valid are read too: " + accepted);
    }

    @Test
    void leavesToJacksonWhatItDoesNotRead() {
        for (String t : new String[] {"", "  ", "// c\n{}", "{} {}", "NaN", "[Infinity]", "+1", "01", "1.", "[1,]", "{\"a\":}",
                "\"a\u0001\"", "\"\\x\"", "\"\\u12g4\"", "nul", "truex", "[" .repeat(250) + "]".repeat(250), "1".repeat(120)}) {
            assertNull(PlainJsonReader.tree(t), t);
        }
        assertNull(PlainJsonReader.tree("\"" + "x".repeat(5_000_001) + "\""), "longer strings: Jackson's limits decide");
        assertNull(PlainJsonReader.tree(new byte[] {'[', 0, ']', 0}), "UTF-16");
        assertNull(PlainJsonReader.tree(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '1'}), "a BOM");
        assertNull(PlainJsonReader.tree(new byte[] {'"', (byte) 0xC3, '"'}), "not UTF-8");
        assertNull(PlainJsonReader.tree(new byte[] {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'}), "an encoded surrogate");
        assertEquals(Json.mapper().createArrayNode().add("\uFFFD"), PlainJsonReader.tree("[\"\uFFFD\"]".getBytes(StandardCharsets.UTF_8)),
                "a real replacement character");
    }

    private static Object value(Random r, int depth) {
        switch (depth > 3 ? r.nextInt(9) : r.nextInt(12)) {
            case 0: return null;
            case 1: return r.nextBoolean();
            case 2: return r.nextInt();
            case 3: return r.nextLong();
            case 4: return r.nextDouble() * Math.pow(10, r.nextInt(40) - 20) * (r.nextBoolean() ? 1 : -1);
            case 5: case 6: return text(r);
            case 7: return new BigInteger(70, r).negate();
            case 8: return r.nextInt(2000) - 1000;
            case 9: case 10: {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = 0, n = r.nextInt(5); i < n; i++) m.put(text(r), value(r, depth + 1));
                return m;
            }
            default: {
                List<Object> l = new ArrayList<>();
                for (int i = 0, n = r.nextInt(5); i < n; i++) l.add(value(r, depth + 1));
                return l;
            }
        }
    }

    private static String text(Random r) {
        String alphabet = "ab \"\\\n\t\u0001\u001fé漢😀/<>&'\u2028\u007f\ud800";
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = r.nextInt(8); i < n; i++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return sb.toString();
    }
}
