package io.skillopt4j.env;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. One task of a benchmark: its string id plus the raw fields of the upstream item format
 * (question, answer, task_type, ...), kept in file order so items round-trip to {@code items.json}.
 */
public record Item(String id, Map<String, Object> fields) {
    public Item {
        Objects.requireNonNull(id, "id");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields == null ? Map.of() : fields));
    }

    /** Returns a field as a string, or "" when absent or null. */
    public String str(String key) {
        Object v = fields.get(key);
        return v == null ? "" : String.valueOf(v);
    }

    /** Returns the item's task type ({@code task_type}, else {@code category}), or "other". */
    public String taskType() {
        String t = str("task_type");
        if (t.isEmpty()) t = str("category");
        return t.isEmpty() ? "other" : t;
    }
}
