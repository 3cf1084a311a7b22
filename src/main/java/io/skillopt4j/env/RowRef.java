package io.skillopt4j.env;

import io.skillopt4j.ConfigException;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Immutable. Where a raw data row came from (file, 0-based index), for one-line errors about it. */
public record RowRef(Path file, int index) {

    /** The error for a missing field. */
    public ConfigException missing(String field, String expected) {
        return new ConfigException(file + ": item " + index + ": field \"" + field + "\" missing (expected " + expected + ")");
    }

    /** The error for a field of the wrong shape. */
    public ConfigException bad(String field, String expected, Object got) {
        String shown = got == null ? "null" : shortRepr(got);
        return new ConfigException(file + ": item " + index + ": field \"" + field + "\" must be " + expected + ", got " + shown);
    }

    /** A non-blank string field (numbers are printed), or throws naming the field. */
    public String requireString(Map<String, Object> row, String field) {
        Object v = row.get(field);
        if (v == null) throw missing(field, "a string");
        if (v instanceof Map || v instanceof List) throw bad(field, "a string", v);
        String s = text(v);
        if (s.isBlank()) throw bad(field, "a non-empty string", v);
        return s;
    }

    /** The first present, non-empty field among {@code names}, or throws that the first is missing. */
    public Object requireFirst(Map<String, Object> row, String expected, String... names) {
        Object v = first(row, names);
        if (v == null) throw missing(names[0], expected);
        return v;
    }

    /** The first present, non-empty field among {@code names} as text, or {@code fallback}. */
    public static String firstOr(String fallback, Map<String, Object> row, String... names) {
        Object v = first(row, names);
        return v == null ? fallback : String.valueOf(v);
    }

    /** A raw value as text; a whole double (a number read from JSON or CSV) without its ".0". */
    public static String text(Object v) {
        return v instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue()) : String.valueOf(v);
    }

    /** The first present, non-empty field among {@code names}, or null. */
    public static Object first(Map<String, Object> row, String... names) {
        return java.util.Arrays.stream(names).map(row::get).filter(v -> v != null && !(v instanceof String s && s.isEmpty()))
                .findFirst().orElse(null);
    }

    private static String shortRepr(Object v) {
        String s = v instanceof String str ? "\"" + str + "\"" : io.skillopt4j.internal.Json.compact(v);
        s = s.replace('\n', ' ');
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
