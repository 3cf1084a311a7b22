package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). Finds the JSON object in a model reply the way upstream's
 * {@code extract_json} does: a fenced {@code json} block first, then the greedy {@code {...}} span.
 */
public final class JsonReply {
    private static final Pattern FENCED = Pattern.compile("```(?:json)?\\s*\\n(.*?)\\n?```", Pattern.DOTALL);

    private JsonReply() {}

    /** Returns the parsed object, or empty when the text holds none. */
    public static Optional<JsonNode> extractObject(String text) {
        if (text == null || text.isBlank()) return Optional.empty();
        Matcher m = FENCED.matcher(text);
        while (m.find()) {
            Optional<JsonNode> n = parse(m.group(1));
            if (n.isPresent()) return n;
        }
        int i = text.indexOf('{');
        int j = text.lastIndexOf('}');
        return i >= 0 && j > i ? parse(text.substring(i, j + 1)) : Optional.empty();
    }

    private static Optional<JsonNode> parse(String s) {
        try {
            JsonNode n = Json.MAPPER.readTree(s.trim());
            return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
