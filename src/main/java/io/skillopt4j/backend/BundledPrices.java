package io.skillopt4j.backend;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stateless. Reads the bundled {@code prices.yaml} without SnakeYAML: every CLI run prices its calls, and a cold
 * JVM spent 15-35 ms of the main thread's start-up in SnakeYAML for these 12 lines
 * (docs/performance.md#cold-start). Only the file's own shape is read — comment lines and
 * {@code model: {key: number, ...}} lines — into exactly what SnakeYAML's safe loader returns for it (a test
 * compares the two); anything else returns null and the caller parses with SnakeYAML as before. User price tables
 * ({@code price_table}) always go through SnakeYAML.
 */
final class BundledPrices {
    private static final Pattern LINE = Pattern.compile("([a-z][a-z0-9.-]*):\\s*\\{([^{}]*)}\\s*");
    private static final Pattern PAIR = Pattern.compile("\\s*([a-z_]+):\\s*([0-9]+\\.[0-9]+|[1-9][0-9]*|0)\\s*");
    // plain scalars YAML 1.1 would not read as strings
    private static final Set<String> NOT_STRINGS = Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null");

    private BundledPrices() {}

    /** Returns the mapping SnakeYAML would load from {@code text}, or null when the text has another shape. */
    static Map<String, Object> parse(String text) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String line : text.split("\n", -1)) {
            if (line.isBlank() || line.startsWith("#")) continue;
            Matcher m = LINE.matcher(line);
            if (!m.matches() || NOT_STRINGS.contains(m.group(1)) || out.containsKey(m.group(1))) return null;
            Map<String, Object> prices = new LinkedHashMap<>();
            for (String pair : m.group(2).split(",", -1)) {
                Matcher p = PAIR.matcher(pair);
                if (!p.matches() || prices.containsKey(p.group(1))) return null;
                String v = p.group(2);
                prices.put(p.group(1), v.indexOf('.') >= 0 ? (Object) Double.valueOf(v) : (Object) Integer.valueOf(v));
            }
            out.put(m.group(1), prices);
        }
        return out.isEmpty() ? null : out;
    }
}
