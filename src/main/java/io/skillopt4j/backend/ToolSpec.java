package io.skillopt4j.backend;

import java.util.Map;
import java.util.Objects;

/** Immutable. A function the model may call: name, description and a JSON-schema map of its parameters. */
public record ToolSpec(String name, String description, Map<String, Object> parameters) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        parameters = parameters == null ? Map.of("type", "object", "properties", Map.of()) : Map.copyOf(parameters);
    }
}
