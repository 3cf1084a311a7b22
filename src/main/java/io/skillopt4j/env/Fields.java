package io.skillopt4j.env;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Stateless. Field coercions shared by the item loaders, each reporting bad data through a {@link RowRef}. */
public final class Fields {
    private Fields() {}

    /** An unmodifiable ordered copy of a record's fields (null: none). */
    static Map<String, Object> frozen(Map<String, Object> fields) {
        return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields == null ? Map.of() : fields));
    }

    /** A non-empty list of strings from a JSON list or a scalar; else an error naming the field. */
    public static List<String> stringList(Map<String, Object> row, String field, RowRef ref) {
        Object v = row.get(field);
        if (v == null) throw ref.missing(field, "a list of strings");
        List<String> out = new ArrayList<>();
        if (v instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof Map || o instanceof List) throw ref.bad(field, "a list of strings", v);
                if (o != null) out.add(String.valueOf(o));
            }
        } else if (v instanceof String s) {
            out.add(s);
        } else if (v instanceof Number || v instanceof Boolean) {
            out.add(String.valueOf(v));
        } else {
            throw ref.bad(field, "a list of strings", v);
        }
        if (out.isEmpty()) throw ref.bad(field, "a non-empty list of strings", v);
        return out;
    }

    /** An optional string field ("" when absent); objects and lists are rejected. */
    public static String optString(Map<String, Object> row, String field, RowRef ref) {
        Object v = row.get(field);
        if (v == null) return "";
        if (v instanceof Map || v instanceof List) throw ref.bad(field, "a string", v);
        return String.valueOf(v);
    }

    /** Python's repr of a list of strings, as upstream's fail reasons print it: {@code ['a', "b's"]}. */
    public static String pyRepr(List<String> xs) {
        return "[" + String.join(", ", xs.stream().map(s -> pyRepr(s)).toList()) + "]";
    }

    /** Python's repr of a string. */
    public static String pyRepr(String s) {
        char q = s.contains("'") && !s.contains("\"") ? '"' : '\'';
        StringBuilder sb = new StringBuilder().append(q);
        for (char c : s.toCharArray()) {
            if (c == '\\') sb.append("\\\\");
            else if (c == q) sb.append('\\').append(c);
            else if (c == '\n') sb.append("\\n");
            else if (c == '\t') sb.append("\\t");
            else if (c == '\r') sb.append("\\r");
            else sb.append(c);
        }
        return sb.append(q).toString();
    }
}
