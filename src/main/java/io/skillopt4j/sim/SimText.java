package io.skillopt4j.sim;

import io.skillopt4j.env.houserules.HouseCategory;
import io.skillopt4j.env.houserules.HouseTasks;
import io.skillopt4j.internal.Json;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Immutable (stateless). Text and randomness helpers shared by the simulated roles. */
final class SimText {
    private SimText() {}

    private static final Pattern ID_CATEGORY = Pattern.compile("\\b(" + String.join("|", HouseCategory.keys()) + ")-\\d{3}\\b");

    /** Returns a random stream that depends only on the seed, a purpose label and the text (never on time or order). */
    static SplittableRandom rng(long seed, String purpose, String text) {
        return new SplittableRandom(hash(seed + "\u0000" + purpose + "\u0000" + text));
    }

    /** Returns the first 8 bytes of SHA-256 of the text as a long. */
    static long hash(String text) {
        return java.nio.ByteBuffer.wrap(io.skillopt4j.internal.Hashes.sha256(text)).getLong();
    }

    /** True when {@code heading} starts a line of {@code text}. */
    static boolean hasHeading(String text, String heading) {
        return text.startsWith(heading) || text.contains("\n" + heading);
    }

    /** The body under the line starting with {@code heading}, up to the first line starting with one of {@code next}, or "". */
    static String section(String text, String heading, List<String> next) {
        int h = text.startsWith(heading) ? 0 : text.indexOf("\n" + heading);
        if (h < 0) return "";
        if (h > 0) h++;
        int start = text.indexOf('\n', h) + 1;
        if (start == 0) return "";
        int end = next.stream().mapToInt(n -> text.indexOf("\n" + n, start - 1)).filter(i -> i >= 0).min().orElse(text.length());
        return text.substring(start, end).strip();
    }

    /** Returns the skill text inside a target system prompt: everything after the {@code ## Skill} line. */
    static String skillOfSystemPrompt(String system) {
        int i = system.startsWith("## Skill\n") ? 0 : system.indexOf("\n## Skill\n");
        if (i < 0) return "";
        return system.substring(system.indexOf("## Skill\n", i) + "## Skill\n".length());
    }

    /** Returns the house category of a trajectory or task text, from its task type line, id or wording. */
    static Optional<HouseCategory> category(String text) {
        Matcher tt = Pattern.compile("(?m)^Task type: *(\\S+)").matcher(text), id = ID_CATEGORY.matcher(text);
        return (tt.find() ? HouseCategory.byKey(tt.group(1)) : Optional.<HouseCategory>empty())
                .or(() -> id.find() ? HouseCategory.byKey(id.group(1)) : HouseTasks.categoryOf(text));
    }

    /** Returns the house-rules ids ({@code date-004}) in the text with their categories, in first-seen order. */
    static Map<String, HouseCategory> idsIn(String text) {
        Map<String, HouseCategory> out = new java.util.LinkedHashMap<>();
        ID_CATEGORY.matcher(text).results().forEach(m -> out.putIfAbsent(m.group(), HouseCategory.byKey(m.group(1)).orElseThrow()));
        return out;
    }

    /** Parses the JSON array that starts at the first line beginning with '[' after {@code from}, or null. */
    static List<Object> jsonArrayAfter(String text, int from) {
        int i = text.indexOf("\n[", Math.max(0, from));
        if (i < 0) return null;
        String rest = text.substring(i + 1);
        int end = rest.lastIndexOf(']');
        while (end > 0) {
            try {
                return Json.parseArray(rest.substring(0, end + 1));
            } catch (RuntimeException e) {
                end = rest.lastIndexOf(']', end - 1);
            }
        }
        return null;
    }

    /** Returns the reply text for a JSON answer, in a ```json fence as chat models usually write it. */
    static String fenced(Object value) {
        return "```json\n" + Json.pretty(value) + "\n```";
    }

    /** Returns the integer captured by {@code regex} group 1, or {@code def}. */
    static int intAfter(String text, String regex, int def) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : def;
    }

    /** Lower-cases and collapses whitespace and trailing punctuation, for de-duplication. */
    static String canonical(String s) {
        return s == null ? "" : s.toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ").replaceAll("^[-*\\s]+|[\\s.;:,_-]+$", "").trim();
    }
}
