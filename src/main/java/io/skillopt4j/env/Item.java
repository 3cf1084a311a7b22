package io.skillopt4j.env;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Immutable. One task: its id and the upstream item's fields, in file order so items round-trip to items.json. */
public record Item(String id, Map<String, Object> fields) {
    public Item {
        Objects.requireNonNull(id, "id");
        fields = Fields.frozen(fields);
    }

    /** A field as a string, or "" when absent or null. */
    public String str(String key) { return Objects.toString(fields.get(key), ""); }

    /** A list field, as the item's mapper stored it. */
    @SuppressWarnings("unchecked")
    public <T> List<T> list(String key) { return (List<T>) fields.get(key); }

    /** {@code task_type}, else {@code category}, else "other". */
    public String taskType() {
        String t = str("task_type");
        if (t.isEmpty()) t = str("category");
        return t.isEmpty() ? "other" : t;
    }
}
