package io.skillopt4j.internal;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Thread-safe (stateless). The one reader of JSON out of a model reply, after upstream's {@code extract_json}: a
 * fenced block, then the span from the first "{" to the last "}", then (optimizer replies only) a lenient repair of
 * a single unambiguous object by Jackson's read features and {@link ReplyRepair}.
 */
public final class JsonReply {
    /** One fenced block with its optional language word; matched in order, so other languages' blocks are skipped. */
    private static final Pattern FENCE = Pattern.compile("```([A-Za-z0-9_+-]*)[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);
    /** The repair's reader: the parser features that accept what models write around JSON. */
    private static final ObjectReader LENIENT = Json.mapper().reader()
            .withFeatures(JsonReadFeature.ALLOW_SINGLE_QUOTES.mappedFeature(), JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES.mappedFeature(),
                    JsonReadFeature.ALLOW_TRAILING_COMMA.mappedFeature(), JsonReadFeature.ALLOW_JAVA_COMMENTS.mappedFeature(),
                    JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS.mappedFeature(),
                    JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER.mappedFeature(),
                    JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS.mappedFeature(),
                    JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS.mappedFeature(),
                    JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS.mappedFeature(),
                    JsonReadFeature.ALLOW_MISSING_VALUES.mappedFeature())
            .forType(Object.class);

    /** The first value of {@code text} read leniently; trailing text ignored. */
    static Object lenientRead(String text) throws IOException {
        return LENIENT.readValue(text);
    }

    private JsonReply() {}

    /** The reply's JSON object, repaired if need be, or empty (upstream's None / non-dict). */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> object(String text) {
        Object v = extract(text);
        return v instanceof Map<?, ?> m ? Optional.of((Map<String, Object>) m) : Optional.empty();
    }

    /** The first object that parses as it stands, as a tree; no repair, so a garbled reply is retried, not guessed. */
    public static Optional<JsonNode> extractObject(String text) {
        if (text == null || text.isBlank()) return Optional.empty();
        return Optional.ofNullable(firstParsed(text, fencedBlocks(text), JsonReply::strictTree, JsonNode::isObject));
    }

    /** The first fenced block, else the first-"{"-to-last-"}" span, that {@code parse} reads into an {@code ok} value. */
    private static <T> T firstParsed(String text, List<String> blocks, Function<String, T> parse, Predicate<T> ok) {
        int a = text.indexOf('{'), b = text.lastIndexOf('}');
        Stream<String> span = a >= 0 && b > a ? Stream.of(text.substring(a, b + 1)) : Stream.empty();
        return Stream.concat(blocks.stream(), span).map(parse).filter(v -> v != null && ok.test(v)).findFirst().orElse(null);
    }

    /** The first JSON value found by upstream's three steps, or null. */
    public static Object extract(String text) {
        if (text == null || text.isEmpty()) return null;
        List<String> blocks = fencedBlocks(text);
        Object found = firstParsed(text, blocks, JsonReply::strict, v -> true);
        if (found != null) return found;
        List<String> spans = blocks.isEmpty() ? List.of() : topLevelObjects(blocks.get(0));
        if (spans.size() != 1) spans = topLevelObjects(text);
        if (spans.size() != 1) return null;
        String candidate = spans.get(0);
        // an unclosed last span is a truncated reply: repair it too (upstream gives up)
        boolean truncated = !candidate.strip().endsWith("}") || topLevelObjects(candidate).get(0).length() != candidate.length();
        if (!looksLikeJson(truncated ? candidate.strip() + "}" : candidate)) return null;
        try {
            Object v = lenientRead(ReplyRepair.repair(candidate));
            return v instanceof Map<?, ?> m && !m.isEmpty() ? v : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The bodies of the {@code ```json} and bare {@code ```} blocks, in order; other languages are skipped. */
    static List<String> fencedBlocks(String text) {
        return FENCE.matcher(text).results().filter(f -> f.group(1).isEmpty() || f.group(1).equalsIgnoreCase("json"))
                .map(f -> f.group(2).trim()).toList();
    }

    private static Object strict(String s) {
        try { return Json.parse(s); } catch (IllegalArgumentException e) { return null; }
    }

    private static JsonNode strictTree(String s) {
        try { return Json.tree(s.trim()); } catch (IllegalArgumentException e) { return null; }
    }

    static boolean looksLikeJson(String c) {
        String t = c.trim();
        return t.endsWith("}") && t.matches("(?s)\\{\\p{javaWhitespace}*[\"}].*"); // a key or nothing after the brace
    }

    /** The top-level "{...}" spans outside strings; an unclosed last one runs to the end (a truncated reply). */
    static List<String> topLevelObjects(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = -1;
        boolean inStr = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (inStr) {
                if (c == '\\') i++;
                else if (c == '"') inStr = false;
                continue;
            }
            if (c == '"') inStr = true;
            else if (c == '{') { if (depth++ == 0) start = i; }
            else if (c == '}' && depth > 0 && --depth == 0) out.add(s.substring(start, i + 1));
        }
        if (depth > 0 && start >= 0) out.add(s.substring(start));
        return out;
    }
}
