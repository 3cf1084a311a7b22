package io.skillopt4j.env;

import java.util.Map;
import java.util.Objects;

/**
 * Immutable. One task of a benchmark: its string id plus the raw fields of the upstream item format
 * (question, answer, task_type, ...), kept in file order so items round-trip to {@code items.json}.
 */
public record Item(String id, Map<String, Object> fields) {
    public Item {
        Objects.requireNonNull(id, "id");
        fields = Fields.frozen(fields);
    }

    /** Returns a field as a string, or "" when absent or null. */
    public String str(String key) { return Fields.str(fields, key); }

    /** Returns the item's task type ({@code task_type}, else {@code category}), or "other". */
    public String taskType() {
        String t = str("task_type");
        if (t.isEmpty()) t = str("category");
        return t.isEmpty() ? "other" : t;
    }
}
